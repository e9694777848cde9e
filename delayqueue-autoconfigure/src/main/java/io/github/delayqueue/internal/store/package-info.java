/**
 * The Redis storage layer, internal to the starter: key names, the Lua scripts that move
 * jobs between states and the runner that calls them, the compact record codec, the store
 * behind the template and the claims behind the listeners. Its types are public for the
 * starter's other packages only; applications program against
 * {@link io.github.delayqueue.core}, and this package may change in any release.
 */
@NullMarked
package io.github.delayqueue.internal.store;

import org.jspecify.annotations.NullMarked;
