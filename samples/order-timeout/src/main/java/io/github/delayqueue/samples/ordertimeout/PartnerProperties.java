package io.github.delayqueue.samples.ordertimeout;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the simulated partner behaves, bound from {@code partner.*}. Where the notifier
 * calls it is {@code partner.url}.
 *
 * @param refusedOrders how many orders the partner refuses every time (until the demo
 * ends): their notifications end up dead
 * @param flakyEvery every n-th other order fails its first call and succeeds on a retry;
 * 0 for never
 * @author delayqueue contributors
 */
@ConfigurationProperties("partner")
public record PartnerProperties(int refusedOrders, int flakyEvery) {

}
