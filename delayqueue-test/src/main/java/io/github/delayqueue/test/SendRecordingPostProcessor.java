package io.github.delayqueue.test;

import java.lang.reflect.Modifier;

import io.github.delayqueue.core.DelayQueueOperations;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the application's {@link DelayQueueOperations} beans so that every job sent
 * through them is recorded for the test. The wrapper is a subclass of the bean's class
 * where it can be, so that code that injects {@code DelayQueueTemplate} gets it too; it
 * changes nothing else of a call.
 *
 * @author delayqueue contributors
 */
final class SendRecordingPostProcessor implements BeanPostProcessor {

	private final SentJobs sent = new SentJobs();

	SentJobs sent() {
		return this.sent;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof DelayQueueOperations) || bean instanceof RecordingDelayQueueOperations) {
			return bean;
		}
		SendRecordingInterceptor interceptor = new SendRecordingInterceptor(this.sent);
		if (bean instanceof Advised advised && !advised.isFrozen()) {
			advised.addAdvice(0, interceptor);
			return bean;
		}
		ProxyFactory proxy = new ProxyFactory(bean);
		proxy.setProxyTargetClass(!Modifier.isFinal(bean.getClass().getModifiers()));
		proxy.addAdvice(interceptor);
		return proxy.getProxy(bean.getClass().getClassLoader());
	}

}
