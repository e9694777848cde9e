/**
 * Internal: the pieces the engine's packages share (topic policies and backoff, the id
 * generator, the hooks through which sends, claims and outcomes are announced). Public
 * only so that the other packages and the auto-configuration can wire them; they carry no
 * compatibility promise and may change in any release.
 */
@NullMarked
package io.github.delayqueue.internal.support;

import org.jspecify.annotations.NullMarked;
