package io.github.delayqueue.dashboard;

import java.net.URI;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Decides, after routing, whether a request may change anything: refuses with 403 every
 * change while the dashboard is read-only, and every change whose {@code Origin} or
 * {@code Sec-Fetch-Site} header shows that it comes from another origin, so that a page
 * elsewhere cannot make an operator's browser act.
 * <p>
 * The decision is taken where the request is handled, never on the raw URL: a servlet
 * container and Spring's router strip path parameters and decode percent-escapes before
 * they pick a handler, so a rule on the raw URL misses spellings that still reach it. As
 * a filter of the dashboard's routes it refuses any method but GET, HEAD and OPTIONS
 * whatever the route; each action handler asks it again through
 * {@link #guard(HandlerFunction)}, whatever the method.
 *
 * @author delayqueue contributors
 */
final class DashboardActionGuard implements HandlerFilterFunction<ServerResponse, ServerResponse> {

	private static final Set<HttpMethod> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

	private final boolean readOnly;

	/**
	 * Create the guard.
	 * @param readOnly whether every change is refused
	 */
	DashboardActionGuard(boolean readOnly) {
		this.readOnly = readOnly;
	}

	@Override
	public ServerResponse filter(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
		if (READS.contains(request.method())) {
			return next.handle(request);
		}
		return guard(next).handle(request);
	}

	/**
	 * Return a handler that runs an action only when this request may change anything.
	 * @param action the action
	 * @return the guarded action
	 */
	HandlerFunction<ServerResponse> guard(HandlerFunction<ServerResponse> action) {
		return (request) -> {
			String refusal = refusal(request.servletRequest());
			if (refusal != null) {
				return ServerResponse.status(HttpStatus.FORBIDDEN)
					.body(new DashboardApi.ErrorView(HttpStatus.FORBIDDEN.value(), refusal));
			}
			return action.handle(request);
		};
	}

	private @Nullable String refusal(HttpServletRequest request) {
		if (this.readOnly) {
			return "The dashboard is read-only; set delayqueue.dashboard.read-only=false to allow changes";
		}
		String fetchSite = request.getHeader("Sec-Fetch-Site");
		if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
			return "Refused a change requested from another site (Sec-Fetch-Site: " + safe(fetchSite) + ")";
		}
		String origin = request.getHeader("Origin");
		if (origin != null && !origin.equals(ownOrigin(request))) {
			return "Refused a change requested from another origin (" + safe(origin) + ")";
		}
		return null;
	}

	// As the browser writes it: the default port of the scheme is left out. Behind a
	// proxy the servlet container reports the public scheme, host and port when
	// server.forward-headers-strategy is set, as for any other redirect or link.
	private static String ownOrigin(HttpServletRequest request) {
		String scheme = request.getScheme().toLowerCase(Locale.ROOT);
		int port = request.getServerPort();
		boolean defaultPort = (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
		String host = request.getServerName();
		if (host.contains(":") && !host.startsWith("[")) {
			host = "[" + host + "]";
		}
		return URI.create(scheme + "://" + host + (defaultPort ? "" : ":" + port)).toString();
	}

	private static String safe(String value) {
		return value.replaceAll("[^A-Za-z0-9:/._\\[\\]-]", "?");
	}

}
