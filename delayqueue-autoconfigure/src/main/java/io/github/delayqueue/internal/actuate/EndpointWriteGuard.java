package io.github.delayqueue.internal.actuate;

import java.util.List;

import io.github.delayqueue.internal.dashboard.OriginGuard;
import io.github.delayqueue.internal.dashboard.ServletOriginRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Decides whether a write operation of the {@code delayqueue} endpoint, reached over
 * HTTP, may change anything, with the dashboard's rule ({@link OriginGuard}): a browser's
 * request must come from an allowed origin, and a request that carries neither
 * {@code Origin} nor {@code Sec-Fetch-Site} (an operations script's {@code curl}) or,
 * with {@code management.endpoint.delayqueue.allowed-origins} empty, one sent to a host
 * name, must be authenticated. Asked by each write operation, once Actuator has routed
 * the request to it; the request is the one Spring MVC (or Jersey's request context
 * filter) binds to the handling thread. Where none is bound (a reactive server), only an
 * authenticated request may change anything.
 *
 * @author delayqueue contributors
 */
public class EndpointWriteGuard {

	/**
	 * The property that lists the origins the endpoint accepts writes from.
	 */
	public static final String ALLOWED_ORIGINS_PROPERTY = "management.endpoint.delayqueue.allowed-origins";

	private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest",
			EndpointWriteGuard.class.getClassLoader());

	private final OriginGuard origins;

	/**
	 * Create the guard.
	 * @param allowedOrigins the origins writes may be sent to and come from; empty for
	 * the one each request was sent to
	 * @throws IllegalArgumentException if one of them is not an http or https origin
	 */
	public EndpointWriteGuard(List<String> allowedOrigins) {
		this.origins = new OriginGuard(allowedOrigins, ALLOWED_ORIGINS_PROPERTY);
	}

	/**
	 * Return why the request being handled may not change anything.
	 * @param securityContext who is asking
	 * @return the refusal, or {@code null} when it may
	 */
	public @Nullable String refusal(SecurityContext securityContext) {
		OriginGuard.Request request = SERVLET ? CurrentServletRequest.get() : null;
		if (request != null) {
			return this.origins.changeRefusal(request);
		}
		return OriginGuard.isAuthenticated(securityContext.getPrincipal()) ? null
				: "Refused a change by a client that is not logged in, on a server whose request headers the "
						+ "endpoint cannot check; require a login (Spring Security) to change anything through it";
	}

	// Apart, so that the servlet API is loaded only where it is present.
	private static final class CurrentServletRequest {

		static OriginGuard.@Nullable Request get() {
			RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
			return (attributes instanceof ServletRequestAttributes servlet)
					? ServletOriginRequest.of(servlet.getRequest()) : null;
		}

	}

}
