/**
 * Internal, not API: the web dashboard's page, its JSON API, and the rules that keep its
 * actions off unless configured otherwise and same-origin always. The dashboard's JSON
 * and its settings are public; these classes may change in any release.
 */
@NullMarked
package io.github.delayqueue.internal.dashboard;

import org.jspecify.annotations.NullMarked;
