package io.github.delayqueue.dashboard;

import java.security.Principal;
import java.util.Set;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * When the dashboard shows what may hold credentials or tell an attacker about the
 * deployment: payloads, header values, the messages of last errors and host names. Set by
 * {@code delayqueue.dashboard.show-payloads}, like the Actuator endpoint's
 * {@code show-values}.
 *
 * @author delayqueue contributors
 */
public enum ShowValues {

	/**
	 * Never shown.
	 */
	NEVER,

	/**
	 * Shown to an authenticated user who has one of the configured roles, or to any
	 * authenticated user when no role is configured.
	 */
	WHEN_AUTHORIZED,

	/**
	 * Always shown.
	 */
	ALWAYS;

	/**
	 * Return whether values are shown to a user.
	 * @param user the authenticated user, or {@code null} for none
	 * @param hasRole tells whether the user has a role
	 * @param roles the roles that may see values when {@link #WHEN_AUTHORIZED}; empty for
	 * any authenticated user
	 * @return whether values are shown
	 */
	public boolean isShown(@Nullable Principal user, Predicate<String> hasRole, Set<String> roles) {
		return switch (this) {
			case NEVER -> false;
			case ALWAYS -> true;
			case WHEN_AUTHORIZED -> user != null && (roles.isEmpty() || roles.stream().anyMatch(hasRole));
		};
	}

}
