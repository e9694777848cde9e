package io.github.delayqueue.test;

import java.time.Duration;

import io.github.delayqueue.autoconfigure.DelayQueueAutoConfiguration;
import io.github.delayqueue.autoconfigure.DelayQueueProperties;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.internal.schedule.ScheduleEngine;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.DueTimeListener;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@link DelayQueueTester} of a test that uses {@link AutoConfigureDelayQueue}, and
 * what it records: the jobs sent through the application's {@link DelayQueueOperations}
 * beans and what the handlers threw.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnBean(JobStore.class)
public final class DelayQueueTestAutoConfiguration {

	/**
	 * How long {@link DelayQueueTester#awaitIdle(String...)} waits unless
	 * {@code delayqueue-test.await-timeout} says otherwise.
	 */
	public static final Duration DEFAULT_AWAIT_TIMEOUT = Duration.ofSeconds(10);

	@Bean
	static SendRecordingPostProcessor delayQueueSendRecorder() {
		return new SendRecordingPostProcessor();
	}

	@Bean
	HandlerFailures delayQueueHandlerFailures() {
		return new HandlerFailures();
	}

	@Bean
	DelayQueueTester delayQueueTester(ScriptRunner scriptRunner, DelayQueueKeys keys, DelayQueueOperations operations,
			DelayQueueAdmin admin, ObjectProvider<DueTimeListener> dueTimeListeners,
			ObjectProvider<ScheduleEngine> schedules, SendRecordingPostProcessor sendRecorder, HandlerFailures failures,
			QueueWipe wipe, Environment environment) {
		return new DelayQueueTester(new TestSupportStore(scriptRunner, keys), scriptRunner, operations, admin,
				dueTimeListeners, schedules, sendRecorder.sent(), failures, wipe,
				environment.getProperty("delayqueue-test.await-timeout", Duration.class, DEFAULT_AWAIT_TIMEOUT));
	}

	@Bean
	QueueWipe delayQueueTestWipe(RedisConnectionFactory connectionFactory, DelayQueueKeys keys,
			DelayQueueProperties properties) {
		return new QueueWipe(connectionFactory, keys, properties.getKeyPrefix());
	}

	/**
	 * Deletes every key of the test's own key prefix when the context closes, whichever
	 * Redis the test uses: a Redis started for the tests is shared by every context of
	 * the JVM.
	 */
	@Bean
	@ConditionalOnProperty(name = TestKeyPrefixContextCustomizerFactory.OWN_KEY_PREFIX, havingValue = "true")
	TestKeysCleanup delayQueueTestKeysCleanup(QueueWipe wipe, RedisConnectionFactory connectionFactory,
			ListableBeanFactory beans) {
		return new TestKeysCleanup(wipe, connectionFactory,
				beans.containsBean("delayQueueEmbeddedRedis") || beans.containsBean("delayQueueRedisContainer"));
	}

}
