package io.github.delayqueue.dashboard;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards every request under the dashboard's path: sets the headers that keep the page
 * out of frames, caches and content sniffing, with a Content-Security-Policy that allows
 * no inline script; and refuses with 403 a change (any method but GET, HEAD and OPTIONS)
 * while the dashboard is read-only, or when the request comes from another origin (its
 * {@code Origin} or {@code Sec-Fetch-Site} header says so), so that a page elsewhere
 * cannot make an operator's browser act.
 *
 * @author delayqueue contributors
 */
public class DashboardRequestGuard extends OncePerRequestFilter {

	/**
	 * The Content-Security-Policy of every dashboard answer.
	 */
	public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
			+ "style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
			+ "base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	private final String path;

	private final boolean readOnly;

	/**
	 * Create the guard.
	 * @param path the dashboard's path, relative to the context path
	 * @param readOnly whether changes are refused
	 */
	public DashboardRequestGuard(String path, boolean readOnly) {
		this.path = path;
		this.readOnly = readOnly;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String within = request.getRequestURI().substring(request.getContextPath().length());
		return !(within.equals(this.path) || within.startsWith(this.path + "/"));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		response.setHeader("X-Content-Type-Options", "nosniff");
		response.setHeader("Cache-Control", "no-store");
		response.setHeader("X-Frame-Options", "DENY");
		response.setHeader("Referrer-Policy", "same-origin");
		response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
		if (!READS.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
			String refusal = refusal(request);
			if (refusal != null) {
				response.setStatus(HttpServletResponse.SC_FORBIDDEN);
				response.setContentType("application/json");
				response.getWriter().write("{\"status\":403,\"message\":\"" + refusal + "\"}");
				return;
			}
		}
		chain.doFilter(request, response);
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
