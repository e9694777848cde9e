package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.http.HttpCallbackExecutor;
import io.github.delayqueue.http.HttpCallbackListener;
import io.github.delayqueue.http.HttpCallbackValidator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of HTTP callback jobs: the built-in listener that performs them and
 * the check of {@code delayqueue.http-callback.allowed-hosts} when they are sent.
 *
 * @author delayqueue contributors
 */
@AutoConfiguration(after = DelayQueueAutoConfiguration.class)
@ConditionalOnBean(DelayQueueOperations.class)
@ConditionalOnBooleanProperty(name = "delayqueue.http-callback.enabled")
public final class DelayQueueHttpCallbackAutoConfiguration {

	private static final Log logger = LogFactory.getLog(DelayQueueHttpCallbackAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	HttpCallbackValidator delayQueueHttpCallbackValidator(DelayQueueProperties properties) {
		DelayQueueProperties.HttpCallback httpCallback = properties.getHttpCallback();
		HttpCallbackValidator validator;
		try {
			validator = new HttpCallbackValidator(httpCallback.getTopic(), httpCallback.getAllowedHosts());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(HttpCallbackValidator.ALLOWED_HOSTS_PROPERTY,
					httpCallback.getAllowedHosts(), ex.getMessage());
		}
		if (validator.allowsNoHost()) {
			// Not a start-up failure: an application may turn callbacks on before it
			// knows its partners, and every refusal names the property too.
			logger.warn("delayqueue.http-callback.enabled is true but " + HttpCallbackValidator.ALLOWED_HOSTS_PROPERTY
					+ " is empty, so every HTTP callback is refused. List the hosts callbacks may call, for example "
					+ HttpCallbackValidator.ALLOWED_HOSTS_PROPERTY + "=partner.example,*.hooks.example; loopback, "
					+ "link-local and private addresses also need the address or a CIDR range, such as 10.0.0.0/8");
		}
		return validator;
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
