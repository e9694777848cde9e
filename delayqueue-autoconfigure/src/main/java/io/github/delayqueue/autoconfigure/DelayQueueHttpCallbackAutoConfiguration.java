package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.http.HttpCallbackExecutor;
import io.github.delayqueue.http.HttpCallbackListener;
import io.github.delayqueue.http.HttpCallbackValidator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * Auto-configuration of HTTP callback jobs: the built-in listener that performs them and
 * the check of {@code delayqueue.http-callback.allowed-hosts} when they are sent.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnClass(RestClient.class)
@ConditionalOnBean(DelayQueueOperations.class)
@ConditionalOnBooleanProperty(name = "delayqueue.http-callback.enabled")
public final class DelayQueueHttpCallbackAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	HttpCallbackValidator delayQueueHttpCallbackValidator(DelayQueueProperties properties) {
		DelayQueueProperties.HttpCallback httpCallback = properties.getHttpCallback();
		try {
			return new HttpCallbackValidator(httpCallback.getTopic(), httpCallback.getAllowedHosts());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("delayqueue.http-callback.allowed-hosts",
					httpCallback.getAllowedHosts(), ex.getMessage());
		}
	}

	@Bean
	@ConditionalOnMissingBean
	HttpCallbackExecutor delayQueueHttpCallbackExecutor() {
		return new HttpCallbackExecutor();
	}

	@Bean
	@ConditionalOnMissingBean
	HttpCallbackListener delayQueueHttpCallbackListener(HttpCallbackValidator validator,
			HttpCallbackExecutor executor) {
		return new HttpCallbackListener(validator, executor);
	}

}
