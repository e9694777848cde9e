package io.github.delayqueue.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What an overview of the topics shows of one: its counts per state, whether it is
 * paused, and since when its longest waiting ready job has been due, read together.
 *
 * @param stats the counts per state, summed over the topic's partitions
 * @param paused whether listeners claim none of its jobs (any of its partitions, for a
 * partitioned topic)
 * @param oldestReadyDueAt the due time of the ready job that waited longest, or
 * {@code null} when none is ready; the topic's due-lag is the time since
 * @author delayqueue contributors
 */
public record TopicOverview(TopicStats stats, boolean paused, @Nullable Instant oldestReadyDueAt) {

}
