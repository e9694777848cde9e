package io.github.delayqueue.internal.dashboard;

import java.util.List;
import java.util.Locale;
import java.util.Set;

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
 * nothing. A change is refused while the dashboard is read-only, and otherwise as the
 * {@link OriginGuard} decides (the rule the Actuator endpoint applies too): from another
 * origin, without {@code Origin} or {@code Sec-Fetch-Site} unless logged in, and, without
 * {@code allowed-origins}, from a client that is not logged in to a name that could be
 * rebound.
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

	/**
	 * The property that lists the dashboard's origins.
	 */
	static final String ALLOWED_ORIGINS_PROPERTY = "delayqueue.dashboard.allowed-origins";

	private static final Set<HttpMethod> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

	private final boolean readOnly;

	private final OriginGuard origins;

	/**
	 * Create the guard.
	 * @param readOnly whether every change is refused
	 * @param allowedOrigins the origins the dashboard answers and accepts changes from;
	 * empty for the one each request was sent to
	 * @throws IllegalArgumentException if one of them is not an http or https origin
	 */
	DashboardGuard(boolean readOnly, List<String> allowedOrigins) {
		this.readOnly = readOnly;
		this.origins = new OriginGuard(allowedOrigins, ALLOWED_ORIGINS_PROPERTY);
	}

	@Override
	public ServerResponse filter(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
		String refusal = this.origins.hostRefusal(ServletOriginRequest.of(request.servletRequest()));
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
			ServletOriginRequest servletRequest = ServletOriginRequest.of(request.servletRequest());
			String refusal = this.origins.hostRefusal(servletRequest);
			if (refusal == null && this.readOnly) {
				refusal = "The dashboard is read-only; set delayqueue.dashboard.read-only=false to allow changes";
			}
			if (refusal == null) {
				refusal = this.origins.changeRefusal(servletRequest);
			}
			return (refusal != null) ? forbidden(refusal) : action.handle(request);
		};
	}

	private static ServerResponse forbidden(String refusal) {
		return ServerResponse.status(HttpStatus.FORBIDDEN)
			.body(new DashboardApi.ErrorView(HttpStatus.FORBIDDEN.value(), refusal));
	}

}
