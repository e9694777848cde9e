/**
 * The web dashboard: its JSON API and the guard that keeps it same-origin and read-only
 * unless configured otherwise.
 */
@NullMarked
package io.github.delayqueue.dashboard;

import org.jspecify.annotations.NullMarked;
