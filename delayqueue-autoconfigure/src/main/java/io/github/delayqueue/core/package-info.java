/**
 * What applications use: {@link io.github.delayqueue.core.DelayQueueOperations} and its
 * template, job requests, the job model and states, topic policies and the exceptions a
 * send or a handler may meet. How jobs are kept on Redis lives in
 * {@link io.github.delayqueue.store}.
 */
@NullMarked
package io.github.delayqueue.core;

import org.jspecify.annotations.NullMarked;
