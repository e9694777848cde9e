package io.github.delayqueue.internal.dashboard;

import java.security.Principal;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The one rule, shared by the dashboard and the Actuator endpoint, that decides whether
 * an HTTP request may change anything, so that neither a page on another site nor a name
 * an attacker points at this server (DNS rebinding) can make a browser act:
 * <ul>
 * <li>with allowed origins set, the request must be sent to one of them;</li>
 * <li>its {@code Sec-Fetch-Site}, when present, must be {@code same-origin} (or
 * {@code none});</li>
 * <li>its {@code Origin}, when present, must be an allowed origin (by default, the one
 * the request was sent to);</li>
 * <li>a request with neither header comes from no current browser: it must be
 * authenticated;</li>
 * <li>without allowed origins, the origin the request was sent to is whatever its
 * {@code Host} says, which a rebound name fakes; so the request must be authenticated,
 * unless it was sent to an IP address or {@code localhost}, names that no DNS answer can
 * point elsewhere.</li>
 * </ul>
 * It reads the request through {@link Request}, so that it depends on no servlet or
 * reactive API: the endpoint may run on either.
 *
 * @author delayqueue contributors
 */
public final class OriginGuard {

	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

	private static final Pattern IPV6 = Pattern.compile("\\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.%]*]?");

	private static final String ANONYMOUS = "org.springframework.security.authentication.AnonymousAuthenticationToken";

	private final Set<String> allowedOrigins;

	private final String property;

	/**
	 * Create the guard.
	 * @param allowedOrigins the origins requests may be sent to and changes may come
	 * from; empty for the one each request was sent to
	 * @param property the property that lists them, named in refusals
	 * @throws IllegalArgumentException if one of them is not an http or https origin,
	 * naming the property
	 */
	public OriginGuard(List<String> allowedOrigins, String property) {
		this.property = property;
		this.allowedOrigins = allowedOrigins.stream().map(this::origin).collect(Collectors.toUnmodifiableSet());
	}

	private String origin(String text) {
		String origin = DashboardOrigins.normalize(text);
		if (origin == null) {
			throw new IllegalArgumentException(
					this.property + " holds '" + text + "', which is not an http or https origin");
		}
		return origin;
	}

	/**
	 * Return why a request may not be answered at all: with allowed origins set, it was
	 * sent to another host.
	 * @param request the request
	 * @return the refusal, or {@code null} when it may be answered
	 */
	public @Nullable String hostRefusal(Request request) {
		String own = request.ownOrigin();
		if (this.allowedOrigins.isEmpty() || this.allowedOrigins.contains(own)) {
			return null;
		}
		return "Refused a request sent to " + safe(own) + ", which " + this.property + " does not list";
	}

	/**
	 * Return why a request may not change anything.
	 * @param request the request
	 * @return the refusal, naming what to set or send, or {@code null} when it may
	 */
	public @Nullable String changeRefusal(Request request) {
		String refusal = hostRefusal(request);
		if (refusal != null) {
			return refusal;
		}
		String fetchSite = request.header("Sec-Fetch-Site");
		if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
			return "Refused a change requested from another site (Sec-Fetch-Site: " + safe(fetchSite) + ")";
		}
		String origin = request.header("Origin");
		if (origin != null && !isAllowed(DashboardOrigins.normalize(origin), request)) {
			return "Refused a change requested from another origin (" + safe(origin) + ")";
		}
		boolean authenticated = isAuthenticated(request.principal());
		if (origin == null && fetchSite == null && !authenticated) {
			return "Refused a change that carries neither Origin nor Sec-Fetch-Site from a client that is not "
					+ "logged in: browsers send them; a script must log in (Spring Security) or send "
					+ "'Origin: <the origin it calls>'";
		}
		if (this.allowedOrigins.isEmpty() && !authenticated && !cannotBeRebound(request.host())) {
			return "Refused a change sent to " + safe(request.ownOrigin()) + " by a client that is not logged in: "
					+ "another site can point that name at this server (DNS rebinding); set " + this.property
					+ " to the origins it is reached at, or require a login (Spring Security)";
		}
		return null;
	}

	private boolean isAllowed(@Nullable String origin, Request request) {
		if (origin == null) {
			return false;
		}
		return this.allowedOrigins.isEmpty() ? origin.equals(request.ownOrigin())
				: this.allowedOrigins.contains(origin);
	}

	/**
	 * Return whether a principal is a logged-in user: present, and not Spring Security's
	 * anonymous one.
	 * @param principal the principal, or {@code null}
	 * @return {@code true} for a logged-in user
	 */
	public static boolean isAuthenticated(@Nullable Principal principal) {
		if (principal == null) {
			return false;
		}
		// By name: Spring Security is optional.
		for (Class<?> type = principal.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(ANONYMOUS)) {
				return false;
			}
		}
		return true;
	}

	// An address names no DNS entry, and browsers resolve localhost to the loopback
	// address without asking DNS: a page can only have such an origin when this server
	// served it.
	static boolean cannotBeRebound(String host) {
		String name = host.toLowerCase(java.util.Locale.ROOT);
		return name.equals("localhost") || IPV4.matcher(name).matches() || IPV6.matcher(name).matches();
	}

	private static String safe(String value) {
		return value.replaceAll("[^A-Za-z0-9:/._\\[\\]-]", "?");
	}

	/**
	 * What the guard reads of a request.
	 */
	public interface Request {

		/**
		 * Return the scheme the request was sent with, lower case.
		 * @return {@code http} or {@code https}
		 */
		String scheme();

		/**
		 * Return the host the request was sent to, as its {@code Host} header (or a
		 * proxy's forwarded host) names it.
		 * @return the host name or address
		 */
		String host();

		/**
		 * Return the port the request was sent to.
		 * @return the port, or -1 for the scheme's default
		 */
		int port();

		/**
		 * Return a header.
		 * @param name the header's name
		 * @return its first value, or {@code null} when absent
		 */
		@Nullable String header(String name);

		/**
		 * Return who sent the request.
		 * @return the principal, or {@code null} when no user is logged in
		 */
		@Nullable Principal principal();

		/**
		 * Return the origin the request was sent to.
		 * @return the origin, as a browser writes it
		 */
		default String ownOrigin() {
			return DashboardOrigins.of(scheme(), host(), port());
		}

	}

}
