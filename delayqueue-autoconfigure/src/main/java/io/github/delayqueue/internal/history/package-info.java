/**
 * Throughput history shared by every instance: counts of completed, failed, retried and
 * dead jobs per minute and per day, kept in Redis for the dashboard's charts.
 */
@NullMarked
package io.github.delayqueue.internal.history;

import org.jspecify.annotations.NullMarked;
