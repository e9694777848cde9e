/**
 * A shop that closes unpaid orders after a delay and tells a flaky partner about them,
 * built on the delay queue and runnable without installing Redis.
 */
@NullMarked
package io.github.delayqueue.samples.ordertimeout;

import org.jspecify.annotations.NullMarked;
