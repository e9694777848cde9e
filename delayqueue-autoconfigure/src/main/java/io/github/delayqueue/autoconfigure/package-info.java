/**
 * Spring Boot auto-configuration of the delay queue, one class per concern, and its
 * configuration properties.
 */
@NullMarked
package io.github.delayqueue.autoconfigure;

import org.jspecify.annotations.NullMarked;
