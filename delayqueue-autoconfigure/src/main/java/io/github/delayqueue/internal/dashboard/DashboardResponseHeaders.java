package io.github.delayqueue.internal.dashboard;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Sets, on every answer under the dashboard's path, the headers that keep the page out of
 * frames, caches and content sniffing, with a Content-Security-Policy that allows no
 * inline script. Registered for the dashboard's path patterns, which the servlet
 * container matches against the decoded path without path parameters, so every spelling
 * of the path that reaches the dashboard gets them. Who may change what is decided after
 * routing, by the routes themselves.
 *
 * @author delayqueue contributors
 */
public class DashboardResponseHeaders extends OncePerRequestFilter {

	/**
	 * The Content-Security-Policy of every dashboard answer.
	 */
	public static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
			+ "style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
			+ "base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		response.setHeader("X-Content-Type-Options", "nosniff");
		response.setHeader("Cache-Control", "no-store");
		response.setHeader("X-Frame-Options", "DENY");
		response.setHeader("Referrer-Policy", "same-origin");
		response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
		chain.doFilter(request, response);
	}

}
