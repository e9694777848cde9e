/**
 * HTTP callback jobs: a request described by the job, performed when it is due.
 */
@NullMarked
package io.github.delayqueue.http;

import org.jspecify.annotations.NullMarked;
