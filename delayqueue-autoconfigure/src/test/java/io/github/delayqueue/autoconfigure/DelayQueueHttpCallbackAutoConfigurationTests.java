package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobPayloadValidator;
import io.github.delayqueue.http.HttpCallback;
import io.github.delayqueue.http.HttpCallbackExecutor;
import io.github.delayqueue.http.HttpCallbackListener;
import io.github.delayqueue.http.HttpCallbackValidator;
import io.github.delayqueue.listener.DelayedJobListenerEndpointRegistry;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * When {@link DelayQueueHttpCallbackAutoConfiguration} applies and what it registers.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class DelayQueueHttpCallbackAutoConfigurationTests {

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void setUp(RedisTestServer redis) {
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataRedisAutoConfiguration.class, DelayQueueAutoConfiguration.class,
							DelayQueueListenerAutoConfiguration.class, DelayQueueHttpCallbackAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"delayqueue.scheduler.enabled=false", "delayqueue.listener.shutdown-timeout=1s");
	}

	@Test
	void isOffUnlessEnabled() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(HttpCallbackListener.class)
				.doesNotHaveBean(HttpCallbackExecutor.class)
				.doesNotHaveBean(HttpCallbackValidator.class);
		});
	}

	@Test
	void registersTheListenerOnItsTopicAndTheSendTimeCheckWhenEnabled() {
		this.contextRunner.withPropertyValues("delayqueue.http-callback.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(HttpCallbackListener.class)
				.hasSingleBean(HttpCallbackExecutor.class)
				.hasSingleBean(HttpCallbackValidator.class);
			assertThat(context.getBeansOfType(JobPayloadValidator.class)).hasSize(1);
			assertThat(context.getBean(DelayedJobListenerEndpointRegistry.class).isRunning()).isTrue();
			assertThat(context.getBean(DelayQueueAdmin.class).topics()).contains("http-callback");
		});
	}

	@Test
	void warnsAtStartUpThatAnEmptyAllowListRefusesEveryCallback(CapturedOutput output) {
		this.contextRunner.withPropertyValues("delayqueue.http-callback.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("delayqueue.http-callback.enabled is true but "
					+ "delayqueue.http-callback.allowed-hosts is empty, so every HTTP callback is refused. "
					+ "List the hosts callbacks may call");
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> context.getBean(DelayQueueOperations.class)
					.send("http-callback", HttpCallback.get("https://partner.example/").build()))
				.withMessageContaining("delayqueue.http-callback.allowed-hosts is empty");
		});
	}

	@Test
	void doesNotWarnWhenHostsAreAllowed(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("delayqueue.http-callback.enabled=true",
					"delayqueue.http-callback.allowed-hosts=partner.example,10.0.0.0/8")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("allowed-hosts is empty");
			});
	}

	@Test
	void backsOffFromBeansTheApplicationDefines() {
		this.contextRunner.withPropertyValues("delayqueue.http-callback.enabled=true")
			.withUserConfiguration(CustomExecutorConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(HttpCallbackExecutor.class);
				assertThat(context.getBean(HttpCallbackExecutor.class))
					.isSameAs(context.getBean(CustomExecutorConfiguration.class).executor);
			});
	}

	@Test
	void checksTheAllowListOnAnInstanceThatOnlySends() {
		this.contextRunner
			.withPropertyValues("delayqueue.http-callback.enabled=true", "delayqueue.listener.enabled=false",
					"delayqueue.http-callback.allowed-hosts=partner.example")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DelayedJobListenerEndpointRegistry.class);
				assertThatExceptionOfType(InvalidJobException.class)
					.isThrownBy(() -> context.getBean(DelayQueueOperations.class)
						.send("http-callback", HttpCallback.get("https://other.example/").build()))
					.withMessageContaining("'other.example'");
			});
	}

	@Test
	void failsStartUpOnAnAllowedHostThatIsNotAHost() {
		this.contextRunner
			.withPropertyValues("delayqueue.http-callback.enabled=true",
					"delayqueue.http-callback.allowed-hosts=https://partner.example/")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("delayqueue.http-callback.allowed-hosts"));
	}

	@Test
	void staysOffWithoutTheDelayQueue() {
		this.contextRunner.withPropertyValues("delayqueue.http-callback.enabled=true", "delayqueue.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(HttpCallbackListener.class);
			});
	}

	@Test
	void needsNoSpringWeb() {
		this.contextRunner.withPropertyValues("delayqueue.http-callback.enabled=true")
			.withClassLoader(new FilteredClassLoader("org.springframework.web"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(HttpCallbackListener.class);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomExecutorConfiguration {

		final HttpCallbackExecutor executor = new HttpCallbackExecutor();

		@Bean
		HttpCallbackExecutor customExecutor() {
			return this.executor;
		}

	}

}
