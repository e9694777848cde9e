/**
 * The scheduler that moves due jobs to READY and returns expired and orphaned deliveries,
 * sleeping until the next thing is due.
 */
@NullMarked
package io.github.delayqueue.scheduler;

import org.jspecify.annotations.NullMarked;
