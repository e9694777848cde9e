/**
 * What applications use: {@link io.github.delayqueue.core.DelayQueueOperations} (sending
 * and managing their own jobs) and its template,
 * {@link io.github.delayqueue.core.DelayQueueAdmin} (what operators and tools do with the
 * queues), job requests, the job model and states, and the exceptions a send or a handler
 * may meet. How jobs are kept on Redis lives in
 * {@link io.github.delayqueue.internal.store}, which this package uses and which never
 * uses it.
 */
@NullMarked
package io.github.delayqueue.core;

import org.jspecify.annotations.NullMarked;
