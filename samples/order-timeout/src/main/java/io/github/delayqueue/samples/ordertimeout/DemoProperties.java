package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The demo run at start-up, bound from {@code demo.*}.
 *
 * @param enabled whether the demo runs at start-up
 * @param orders how many orders it places
 * @param payRatio the share of orders paid in time, 0 to 1
 * @param closeAfter how long the first order may stay unpaid
 * @param spread how much later the last order's deadline is than the first one's, so that
 * timeouts fall due over a while rather than all at once
 * @param progressInterval how often progress is logged
 * @param giveUpAfter when to log the summary even though jobs are still pending
 * @author delayqueue contributors
 */
@ConfigurationProperties("demo")
public record DemoProperties(@DefaultValue("true") boolean enabled, @DefaultValue("300") int orders,
		@DefaultValue("0.6") double payRatio, @DefaultValue("3s") Duration closeAfter,
		@DefaultValue("3s") Duration spread, @DefaultValue("1s") Duration progressInterval,
		@DefaultValue("2m") Duration giveUpAfter) {

	/**
	 * Return whether the n-th order of the demo (from 1) is paid: paid orders are spread
	 * evenly, and exactly {@link #paidOrders()} of them.
	 * @param n the order's position in the demo
	 * @return {@code true} if it is paid
	 */
	boolean isPaid(int n) {
		return Math.floor(n * this.payRatio) > Math.floor((n - 1) * this.payRatio);
	}

	/**
	 * Return how many demo orders are paid.
	 * @return the count
	 */
	int paidOrders() {
		return (int) Math.floor(this.orders * this.payRatio);
	}

}
