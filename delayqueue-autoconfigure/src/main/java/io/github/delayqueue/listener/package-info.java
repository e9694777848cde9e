/**
 * The machinery behind {@code @DelayedJobListener}, for applications that customise it:
 * the annotation post-processor, the endpoint registry that starts, stops and lists the
 * listener containers, the container factory, and the endpoint a listener is described
 * by. How a container waits for, claims, runs and acknowledges jobs is package-private.
 */
@NullMarked
package io.github.delayqueue.listener;

import org.jspecify.annotations.NullMarked;
