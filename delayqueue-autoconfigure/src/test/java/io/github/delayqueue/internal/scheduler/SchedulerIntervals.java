package io.github.delayqueue.internal.scheduler;

import java.time.Duration;

import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Shortens intervals of the scheduler that no property sets, for application contexts in
 * tests of other packages, which cannot wait for the defaults.
 */
public final class SchedulerIntervals {

	private SchedulerIntervals() {
	}

	/**
	 * Return a post-processor that has the context's scheduler try retiring partitions
	 * again after the given interval while some that the configuration no longer has are
	 * left; set before the scheduler starts.
	 * @param interval the interval
	 * @return the post-processor, for a static bean method
	 */
	public static BeanPostProcessor partitionRetirementRetry(Duration interval) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof DelayedJobScheduler scheduler) {
					scheduler.setPartitionRetirementRetryInterval(interval);
				}
				return bean;
			}

		};
	}

}
