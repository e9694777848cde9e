/**
 * The web dashboard: its page, its JSON API, and the rules that keep its actions off
 * unless configured otherwise and same-origin always.
 */
@NullMarked
package io.github.delayqueue.dashboard;

import org.jspecify.annotations.NullMarked;
