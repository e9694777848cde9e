/**
 * Hints that let Spring AOT and GraalVM native images find what delayqueue loads at run
 * time.
 */
@NullMarked
package io.github.delayqueue.internal.aot;

import org.jspecify.annotations.NullMarked;
