package io.github.delayqueue.internal.dashboard;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Answers {@code OPTIONS} on a dashboard path with the methods that path handles, found
 * by asking the dashboard's own routes, where the servlet would otherwise list every
 * method it knows. A path no route handles answers 404.
 *
 * @author delayqueue contributors
 */
final class DashboardOptions {

	private static final List<HttpMethod> METHODS = List.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT,
			HttpMethod.DELETE, HttpMethod.PATCH);

	private DashboardOptions() {
	}

	/**
	 * Return the routes followed by an answer to {@code OPTIONS} under a path, for what
	 * they do not route themselves.
	 * @param path the dashboard's path
	 * @param routes the dashboard's routes
	 * @return the routes with the answer
	 */
	static RouterFunction<ServerResponse> answering(String path, RouterFunction<ServerResponse> routes) {
		RouterFunction<ServerResponse> options = RouterFunctions.route()
			.OPTIONS(path, (request) -> answer(request, routes))
			.OPTIONS(path + "/**", (request) -> answer(request, routes))
			.build();
		return routes.and(options);
	}

	private static ServerResponse answer(ServerRequest request, RouterFunction<ServerResponse> routes) {
		List<String> allowed = new ArrayList<>();
		for (HttpMethod method : METHODS) {
			ServerRequest probe = ServerRequest.create(new AsMethod(request.servletRequest(), method),
					request.messageConverters());
			if (routes.route(probe).isPresent()) {
				allowed.add(method.name());
				if (method == HttpMethod.GET) {
					// Served for every GET route, without a body.
					allowed.add(HttpMethod.HEAD.name());
				}
			}
		}
		if (allowed.isEmpty()) {
			return ServerResponse.status(HttpStatus.NOT_FOUND)
				.body(new DashboardApi.ErrorView(HttpStatus.NOT_FOUND.value(), "No dashboard resource at this path"));
		}
		allowed.add(HttpMethod.OPTIONS.name());
		return ServerResponse.ok()
			.header(HttpHeaders.ALLOW, allowed.stream().collect(Collectors.joining(", ")))
			.build();
	}

	// The request as if sent with another method, and as no CORS pre-flight, which
	// routes match by the method it announces; with attributes of its own, where a
	// matching route records its pattern and variables.
	private static final class AsMethod extends HttpServletRequestWrapper {

		private final HttpMethod method;

		private final Map<String, Object> attributes = new HashMap<>();

		AsMethod(HttpServletRequest request, HttpMethod method) {
			super(request);
			this.method = method;
			for (String name : Collections.list(request.getAttributeNames())) {
				this.attributes.put(name, request.getAttribute(name));
			}
		}

		@Override
		public Object getAttribute(String name) {
			return this.attributes.get(name);
		}

		@Override
		public Enumeration<String> getAttributeNames() {
			return Collections.enumeration(this.attributes.keySet());
		}

		@Override
		public void setAttribute(String name, Object value) {
			this.attributes.put(name, value);
		}

		@Override
		public void removeAttribute(String name) {
			this.attributes.remove(name);
		}

		@Override
		public String getMethod() {
			return this.method.name();
		}

		@Override
		public String getHeader(String name) {
			return name.toLowerCase(Locale.ROOT).equals("access-control-request-method") ? null : super.getHeader(name);
		}

	}

}
