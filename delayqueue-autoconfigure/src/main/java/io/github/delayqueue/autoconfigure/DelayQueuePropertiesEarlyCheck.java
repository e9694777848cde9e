package io.github.delayqueue.autoconfigure;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Binds and checks the delay queue's properties once before any bean is made, so that bad
 * properties fail start-up with their report alone. Bound first as a dependency of
 * whatever bean needs them, they may fail while the web server starts (observation and
 * filter beans are made then), which logs the failure as the server's own error, with its
 * stack, before the report.
 *
 * @author delayqueue contributors
 */
final class DelayQueuePropertiesEarlyCheck implements BeanFactoryPostProcessor {

	private final Environment environment;

	DelayQueuePropertiesEarlyCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		BindHandler handler = new DelayQueuePropertiesBinding(this.environment).apply(BindHandler.DEFAULT);
		Binder.get(this.environment).bindOrCreate("delayqueue", Bindable.of(DelayQueueProperties.class), handler);
	}

}
