/**
 * The delay queue itself: the template that sends and manages jobs, the job model, the
 * payload codec and the Lua scripts that move jobs between states on Redis.
 */
@NullMarked
package io.github.delayqueue.core;

import org.jspecify.annotations.NullMarked;
