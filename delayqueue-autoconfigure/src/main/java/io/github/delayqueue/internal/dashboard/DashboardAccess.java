package io.github.delayqueue.internal.dashboard;

import java.util.List;
import java.util.Set;

import io.github.delayqueue.dashboard.ShowValues;

/**
 * Who may do and see what on the dashboard.
 *
 * @param readOnly whether every change is refused
 * @param showPayloads when payloads, header values, error messages and host names are
 * shown
 * @param roles the roles that see them when {@code showPayloads} is
 * {@link ShowValues#WHEN_AUTHORIZED}; empty for any authenticated user
 * @param allowedOrigins the origins the dashboard answers and accepts changes from; empty
 * for the one each request was sent to
 * @author delayqueue contributors
 */
public record DashboardAccess(boolean readOnly, ShowValues showPayloads, Set<String> roles,
		List<String> allowedOrigins) {

	/**
	 * Create the settings, keeping unmodifiable copies of the collections.
	 */
	public DashboardAccess {
		roles = Set.copyOf(roles);
		allowedOrigins = List.copyOf(allowedOrigins);
	}

}
