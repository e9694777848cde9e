/**
 * Recurring schedules, internal to the starter: their definitions and tick series, the
 * Redis side of producing each tick exactly once, the reconciliation of what instances
 * declare, and the loop that produces ticks on time. Applications program against
 * {@link io.github.delayqueue.core.DelayQueueSchedules} and
 * {@link io.github.delayqueue.annotation.Recurring}; this package may change in any
 * release.
 */
@NullMarked
package io.github.delayqueue.internal.schedule;

import org.jspecify.annotations.NullMarked;
