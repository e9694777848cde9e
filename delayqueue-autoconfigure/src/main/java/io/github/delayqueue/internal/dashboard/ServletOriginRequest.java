package io.github.delayqueue.internal.dashboard;

import java.security.Principal;
import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * A servlet request as the {@link OriginGuard} reads it. Behind a proxy the servlet
 * container reports the public scheme, host and port when
 * {@code server.forward-headers-strategy} is set, as for any redirect or link.
 *
 * @param request the request
 * @author delayqueue contributors
 */
public record ServletOriginRequest(HttpServletRequest request) implements OriginGuard.Request {

	/**
	 * Read a servlet request.
	 * @param request the request
	 * @return what the guard reads of it
	 */
	public static ServletOriginRequest of(HttpServletRequest request) {
		return new ServletOriginRequest(request);
	}

	@Override
	public String scheme() {
		return this.request.getScheme().toLowerCase(Locale.ROOT);
	}

	@Override
	public String host() {
		return this.request.getServerName();
	}

	@Override
	public int port() {
		return this.request.getServerPort();
	}

	@Override
	public @Nullable String header(String name) {
		return this.request.getHeader(name);
	}

	@Override
	public @Nullable Principal principal() {
		return this.request.getUserPrincipal();
	}

}
