package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.internal.dashboard.DashboardAccess;
import io.github.delayqueue.internal.dashboard.DashboardApi;
import io.github.delayqueue.internal.dashboard.DashboardResponseHeaders;
import io.github.delayqueue.internal.history.ThroughputHistory;
import io.github.delayqueue.internal.presence.ListenerPresence;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.TopicPolicies;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Auto-configuration of the web dashboard in a servlet web application, when
 * {@code delayqueue.dashboard.enabled} is {@code true}. An application's Spring Security
 * rules apply to its path like to any other.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = { DelayQueueAutoConfiguration.class, DelayQueueHistoryAutoConfiguration.class,
		DelayQueueSchedulesAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RouterFunction.class)
@ConditionalOnBean(DelayQueueOperations.class)
@ConditionalOnProperty(prefix = "delayqueue.dashboard", name = "enabled", havingValue = "true")
public final class DelayQueueDashboardAutoConfiguration {

	@Bean
	RouterFunction<ServerResponse> delayQueueDashboardRoutes(DelayQueueOperations operations, DelayQueueAdmin admin,
			ScriptRunner scriptRunner, ObjectProvider<ThroughputHistory> history, DelayQueueProperties properties,
			ObjectProvider<DelayQueueSchedules> schedules, TopicPolicies policies) {
		DelayQueueProperties.Dashboard dashboard = properties.getDashboard();
		DashboardAccess access = new DashboardAccess(dashboard.isReadOnly(), dashboard.getShowPayloads(),
				dashboard.getRoles(), dashboard.getAllowedOrigins());
		DashboardApi api = new DashboardApi(operations, admin,
				new ListenerPresence(scriptRunner.redis(), properties.getKeyPrefix()), history.getIfAvailable(),
				scriptRunner::serverTime, access);
		api.setTimelineTopics((topic) -> policies.forTopic(topic).history().timeline());
		schedules.ifAvailable(api::setSchedules);
		return api.routes(dashboard.getPath());
	}

	@Bean
	FilterRegistrationBean<DashboardResponseHeaders> delayQueueDashboardResponseHeaders(
			DelayQueueProperties properties) {
		String path = properties.getDashboard().getPath();
		FilterRegistrationBean<DashboardResponseHeaders> registration = new FilterRegistrationBean<>(
				new DashboardResponseHeaders());
		registration.addUrlPatterns(path, path + "/*");
		registration.setName("delayQueueDashboardResponseHeaders");
		return registration;
	}

}
