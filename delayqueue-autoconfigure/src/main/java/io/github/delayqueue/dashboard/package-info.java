/**
 * The web dashboard's public setting types
 * ({@link io.github.delayqueue.dashboard.ShowValues}); the dashboard itself is in
 * {@code io.github.delayqueue.internal.dashboard}.
 */
@NullMarked
package io.github.delayqueue.dashboard;

import org.jspecify.annotations.NullMarked;
