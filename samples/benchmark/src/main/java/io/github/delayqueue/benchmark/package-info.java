/**
 * A command-line benchmark of the delay queue against Redisson's delayed queue and
 * against Redis itself.
 */
@NullMarked
package io.github.delayqueue.benchmark;

import org.jspecify.annotations.NullMarked;
