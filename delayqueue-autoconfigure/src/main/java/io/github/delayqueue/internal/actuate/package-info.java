/**
 * Observability of the delay queue: Micrometer meters, the Actuator endpoint and the
 * health indicator.
 */
@NullMarked
package io.github.delayqueue.internal.actuate;

import org.jspecify.annotations.NullMarked;
