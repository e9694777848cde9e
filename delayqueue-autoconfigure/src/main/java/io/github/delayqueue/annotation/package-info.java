/**
 * The annotation that turns a method into a consumer of delayed jobs.
 */
@NullMarked
package io.github.delayqueue.annotation;

import org.jspecify.annotations.NullMarked;
