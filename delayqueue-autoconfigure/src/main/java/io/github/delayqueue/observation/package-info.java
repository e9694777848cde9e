/**
 * Micrometer Observation of sends and handler runs, so that one trace follows a job from
 * the request that sent it to the handler that ran it, on any instance and days later.
 * Applications may customise the names and tags through the
 * {@code DelayQueueSendObservationConvention} and
 * {@code DelayQueueProcessObservationConvention} beans; the other types are internal.
 */
@NullMarked
package io.github.delayqueue.observation;

import org.jspecify.annotations.NullMarked;
