/**
 * Internal: which instances run which listeners, kept in Redis so that the endpoint,
 * health and the dashboard can tell topics that nobody consumes, and the pruning of
 * topics that have neither jobs nor listeners. Public only for the auto-configuration and
 * the starter's other packages; no compatibility promise.
 */
@NullMarked
package io.github.delayqueue.internal.presence;

import org.jspecify.annotations.NullMarked;
