/**
 * Internal: the scheduler that moves due jobs to READY and returns expired and orphaned
 * deliveries, sleeping until the next thing is due, and its wake-ups. Public only for the
 * auto-configuration; no compatibility promise.
 */
@NullMarked
package io.github.delayqueue.internal.scheduler;

import org.jspecify.annotations.NullMarked;
