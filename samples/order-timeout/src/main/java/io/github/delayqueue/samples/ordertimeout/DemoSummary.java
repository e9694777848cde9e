package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

/**
 * What the demo did.
 *
 * @param orders orders placed
 * @param paid orders paid in time, whose timeout jobs were cancelled
 * @param closed orders closed by their timeout jobs
 * @param pending orders neither paid nor closed (zero once complete)
 * @param delivered partner notifications the partner accepted
 * @param retried partner notifications that needed at least one retry
 * @param dead partner notifications parked as dead after their last attempt
 * @param latenessP50 median lateness of timeout jobs (handler start minus due time)
 * @param latenessP99 99th percentile of that lateness
 * @param took from the first order placed to the summary
 * @param complete whether every job was settled before the demo gave up waiting
 * @author delayqueue contributors
 */
public record DemoSummary(int orders, int paid, int closed, int pending, long delivered, long retried, long dead,
		Duration latenessP50, Duration latenessP99, Duration took, boolean complete) {

}
