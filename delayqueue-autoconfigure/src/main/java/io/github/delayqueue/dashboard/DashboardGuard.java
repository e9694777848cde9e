package io.github.delayqueue.dashboard;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Decides, after routing, whether a request may use the dashboard and whether it may
 * change anything. With {@code allowed-origins} set, a request sent to any other host is
 * refused, so that a name an attacker points at this server (DNS rebinding) reads
 * nothing. A change is refused while the dashboard is read-only, and when its
 * {@code Origin} or {@code Sec-Fetch-Site} header shows another origin than the allowed
 * ones (by default: the one the request was sent to), so that a page elsewhere cannot
 * make an operator's browser act.
 * <p>
 * The decision is taken where the request is handled, never on the raw URL: a servlet
 * container and Spring's router strip path parameters and decode percent-escapes before
 * they pick a handler, so a rule on the raw URL misses spellings that still reach it. As
 * a filter of the dashboard's routes it checks every request, and refuses any method but
 * GET, HEAD and OPTIONS that breaks the rules for changes, whatever the route; each
 * action handler asks it again through {@link #guard(HandlerFunction)}, whatever the
 * method.
 *
 * @author delayqueue contributors
 */
final class DashboardGuard implements HandlerFilterFunction<ServerResponse, ServerResponse> {

	private static final Set<HttpMethod> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

	private final boolean readOnly;

	private final Set<String> allowedOrigins;

	/**
	 * Create the guard.
	 * @param readOnly whether every change is refused
	 * @param allowedOrigins the origins the dashboard answers and accepts changes from;
	 * empty for the one each request was sent to
	 * @throws IllegalArgumentException if one of them is not an http or https origin
	 */
	DashboardGuard(boolean readOnly, List<String> allowedOrigins) {
		this.readOnly = readOnly;
		this.allowedOrigins = allowedOrigins.stream().map(DashboardGuard::origin).collect(Collectors.toSet());
	}

	private static String origin(String text) {
		String origin = DashboardOrigins.normalize(text);
		if (origin == null) {
			throw new IllegalArgumentException("Not an http or https origin: '" + text + "'");
		}
		return origin;
	}

	@Override
	public ServerResponse filter(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
		String refusal = hostRefusal(request.servletRequest());
		if (refusal != null) {
			return forbidden(refusal);
		}
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
			HttpServletRequest servletRequest = request.servletRequest();
			String refusal = hostRefusal(servletRequest);
			if (refusal == null) {
				refusal = changeRefusal(servletRequest);
			}
			return (refusal != null) ? forbidden(refusal) : action.handle(request);
		};
	}

	private @Nullable String hostRefusal(HttpServletRequest request) {
		if (this.allowedOrigins.isEmpty() || this.allowedOrigins.contains(ownOrigin(request))) {
			return null;
		}
		return "Refused a request sent to " + safe(ownOrigin(request))
				+ ", which delayqueue.dashboard.allowed-origins does not list";
	}

	private @Nullable String changeRefusal(HttpServletRequest request) {
		if (this.readOnly) {
			return "The dashboard is read-only; set delayqueue.dashboard.read-only=false to allow changes";
		}
		String fetchSite = request.getHeader("Sec-Fetch-Site");
		if (fetchSite != null && !fetchSite.equals("same-origin") && !fetchSite.equals("none")) {
			return "Refused a change requested from another site (Sec-Fetch-Site: " + safe(fetchSite) + ")";
		}
		String origin = request.getHeader("Origin");
		if (origin != null && !isAllowed(DashboardOrigins.normalize(origin), request)) {
			return "Refused a change requested from another origin (" + safe(origin) + ")";
		}
		return null;
	}

	private boolean isAllowed(@Nullable String origin, HttpServletRequest request) {
		if (origin == null) {
			return false;
		}
		return this.allowedOrigins.isEmpty() ? origin.equals(ownOrigin(request)) : this.allowedOrigins.contains(origin);
	}

	// Behind a proxy the servlet container reports the public scheme, host and port when
	// server.forward-headers-strategy is set, as for any redirect or link.
	private static String ownOrigin(HttpServletRequest request) {
		return DashboardOrigins.of(request.getScheme().toLowerCase(Locale.ROOT), request.getServerName(),
				request.getServerPort());
	}

	private static ServerResponse forbidden(String refusal) {
		return ServerResponse.status(HttpStatus.FORBIDDEN)
			.body(new DashboardApi.ErrorView(HttpStatus.FORBIDDEN.value(), refusal));
	}

	private static String safe(String value) {
		return value.replaceAll("[^A-Za-z0-9:/._\\[\\]-]", "?");
	}

}
