/**
 * The machinery behind {@code @DelayedJobListener}: the annotation post-processor, the
 * endpoint registry and the listener containers that claim, run and acknowledge jobs.
 */
@NullMarked
package io.github.delayqueue.listener;

import org.jspecify.annotations.NullMarked;
