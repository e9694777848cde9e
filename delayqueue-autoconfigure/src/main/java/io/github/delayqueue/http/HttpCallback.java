package io.github.delayqueue.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.core.InvalidJobException;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP request to perform when a job is due: the payload of an HTTP callback job. With
 * {@code delayqueue.http-callback.enabled=true}, a built-in listener on the topic
 * {@code delayqueue.http-callback.topic} (default {@code http-callback}) performs it.
 *
 * <pre class="code">
 * HttpCallback callback = HttpCallback.post("https://partner.example/notify")
 *     .header("Content-Type", "application/json")
 *     .body("{\"order\":42}")
 *     .timeout(Duration.ofSeconds(5))
 *     .build();
 * delayQueue.send("http-callback", callback, Duration.ofMinutes(5));
 * </pre>
 *
 * <p>
 * A 2xx answer completes the job. 408, 429 and 5xx answers, timeouts and connection
 * errors are retried on the topic's backoff, or after the answer's {@code Retry-After}
 * when it has one. Any other answer, redirects included, makes the job dead at once, with
 * the status and the start of the answer's body as its last error. Redirects are never
 * followed, so that a callback cannot be steered to a host that is not allowed: call the
 * final URL.
 *
 * <p>
 * A callback is checked when it is built and again whenever it is read back from Redis:
 * the URL must be absolute {@code http} or {@code https} with a host and without user
 * information, the method one of {@code GET}, {@code HEAD}, {@code POST}, {@code PUT},
 * {@code PATCH}, {@code DELETE} and {@code OPTIONS}, a body is allowed only with
 * {@code POST}, {@code PUT} and {@code PATCH}, header names must be HTTP tokens and their
 * values ISO-8859-1 text without line breaks or other control characters (the headers the
 * HTTP client sets itself, such as {@code Host} and {@code Content-Length}, are refused)
 * and the timeout must be more than zero. Breaking a rule throws
 * {@link InvalidJobException}. Where callbacks may go,
 * {@code delayqueue.http-callback.allowed-hosts}, is checked when the job is sent (the
 * host must be listed) and again before the call, with the host resolved then: an empty
 * list allows no host, and loopback, link-local and private addresses must be listed as
 * addresses or ranges (see {@link HttpCallbackValidator}).
 *
 * <p>
 * A body sent without a {@code Content-Type} header is sent as
 * {@code text/plain;charset=UTF-8}; the body is always encoded as UTF-8. Keep the timeout
 * below the topic's {@code ttr}, or a slow call is delivered again while it still runs.
 *
 * @param url the absolute {@code http} or {@code https} URL to call
 * @param method the HTTP method, in upper case
 * @param headers the request headers, by name
 * @param body the request body, or {@code null} for none
 * @param timeout how long to wait for the answer, connecting included
 * @author delayqueue contributors
 */
public record HttpCallback(String url, String method, Map<String, String> headers, @Nullable String body,
		Duration timeout) {

	/**
	 * The timeout of a callback that sets none.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

	private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

	private static final Set<String> METHODS_WITH_BODY = Set.of("POST", "PUT", "PATCH");

	// Set by the executor itself (Host, Content-Length, Connection) or about how the
	// connection is used, which is the executor's to decide.
	private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
			"upgrade", "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection");

	private static final String TOKEN_CHARACTERS = "!#$%&'*+-.^_`|~";

	/**
	 * Create a callback, checking every rule; {@code null} headers mean none and a
	 * {@code null} timeout means {@link #DEFAULT_TIMEOUT}, so that JSON written by older
	 * versions or by hand reads back.
	 * @throws InvalidJobException if the callback breaks a rule
	 */
	public HttpCallback {
		method = checkMethod(method);
		checkUrl(url);
		headers = checkHeaders((headers != null) ? headers : Map.of());
		if (body != null && !METHODS_WITH_BODY.contains(method)) {
			throw new InvalidJobException("HTTP callback " + method + " " + describe(url)
					+ " must not have a body; only POST, PUT and PATCH do");
		}
		timeout = (timeout != null) ? timeout : DEFAULT_TIMEOUT;
		if (timeout.isNegative() || timeout.isZero()) {
			throw new InvalidJobException(
					"Timeout of HTTP callback " + describe(url) + " must be more than zero, was " + timeout);
		}
	}

	/**
	 * Start a {@code GET} callback.
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder get(String url) {
		return new Builder("GET", url);
	}

	/**
	 * Start a {@code POST} callback.
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder post(String url) {
		return new Builder("POST", url);
	}

	/**
	 * Start a {@code PUT} callback.
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder put(String url) {
		return new Builder("PUT", url);
	}

	/**
	 * Start a {@code PATCH} callback.
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder patch(String url) {
		return new Builder("PATCH", url);
	}

	/**
	 * Start a {@code DELETE} callback.
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder delete(String url) {
		return new Builder("DELETE", url);
	}

	/**
	 * Start a callback with any of the allowed methods, {@code HEAD} and {@code OPTIONS}
	 * included.
	 * @param method the HTTP method
	 * @param url the absolute {@code http} or {@code https} URL
	 * @return a builder
	 */
	public static Builder method(String method, String url) {
		return new Builder(method, url);
	}

	/**
	 * Return the host the callback calls, in lower case and without a trailing dot, as
	 * {@code allowed-hosts} entries are compared.
	 * @param callback the callback
	 * @return the host
	 */
	static String hostOf(HttpCallback callback) {
		return normalizeHost(parse(callback.url()).getHost());
	}

	static String normalizeHost(String host) {
		String normalized = host.trim().toLowerCase(Locale.ROOT);
		if (normalized.startsWith("[") && normalized.endsWith("]")) {
			normalized = normalized.substring(1, normalized.length() - 1);
		}
		return normalized.endsWith(".") ? normalized.substring(0, normalized.length() - 1) : normalized;
	}

	/**
	 * Return the URL without its query and fragment, which may carry secrets that must
	 * not end up in logs or in a dead job's last error.
	 * @param url the URL
	 * @return the URL to show
	 */
	static String describe(@Nullable String url) {
		if (url == null) {
			return "null";
		}
		int end = url.length();
		for (char stop : new char[] { '?', '#' }) {
			int index = url.indexOf(stop);
			if (index >= 0 && index < end) {
				end = index;
			}
		}
		return (end < url.length()) ? url.substring(0, end) + "?..." : url;
	}

	static URI parse(String url) {
		try {
			return new URI(url);
		}
		catch (URISyntaxException ex) {
			throw new InvalidJobException("HTTP callback URL '" + describe(url) + "' is not a valid URI: "
					+ ex.getReason() + " at index " + ex.getIndex(), ex);
		}
	}

	private static String checkMethod(@Nullable String method) {
		String upper = (method != null) ? method.trim().toUpperCase(Locale.ROOT) : "";
		if (!METHODS.contains(upper)) {
			throw new InvalidJobException(
					"HTTP callback method '" + method + "' is not one of " + String.join(", ", sorted(METHODS)));
		}
		return upper;
	}

	private static void checkUrl(@Nullable String url) {
		if (url == null || url.isBlank()) {
			throw new InvalidJobException("HTTP callback URL must not be blank");
		}
		URI uri = parse(url);
		String scheme = uri.getScheme();
		if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
			throw new InvalidJobException(
					"HTTP callback URL '" + describe(url) + "' must use http or https, not " + scheme);
		}
		if (uri.getHost() == null || uri.getHost().isBlank()) {
			throw new InvalidJobException("HTTP callback URL '" + describe(url) + "' has no host"
					+ ((uri.getRawAuthority() != null) ? " that is a valid host name" : ""));
		}
		if (uri.getPort() == 0 || uri.getPort() > 65535) {
			throw new InvalidJobException(
					"HTTP callback URL '" + describe(url) + "' has port " + uri.getPort() + ", not 1 to 65535");
		}
		if (uri.getRawUserInfo() != null) {
			throw new InvalidJobException("HTTP callback URL '" + scheme + "://" + uri.getHost()
					+ "...' must not carry user information; send credentials in an Authorization header");
		}
	}

	private static Map<String, String> checkHeaders(Map<String, String> headers) {
		Map<String, String> checked = new LinkedHashMap<>();
		headers.forEach((name, value) -> {
			if (name == null || name.isEmpty() || !name.chars().allMatch(HttpCallback::isTokenCharacter)) {
				throw new InvalidJobException("HTTP callback header name '" + name + "' is not a valid HTTP token");
			}
			if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
				throw new InvalidJobException(
						"HTTP callback header '" + name + "' is set by the HTTP client and must not be given");
			}
			if (value == null || value.chars().anyMatch((c) -> c == '\r' || c == '\n' || c == 0)) {
				throw new InvalidJobException(
						"HTTP callback header '" + name + "' must have a value without line breaks");
			}
			if (!value.chars().allMatch(HttpCallback::isFieldValueCharacter)) {
				throw new InvalidJobException("HTTP callback header '" + name
						+ "' has a character that an HTTP/1.1 header value cannot carry: control characters and "
						+ "characters beyond ISO-8859-1 are not allowed");
			}
			checked.put(name, value);
		});
		return Collections.unmodifiableMap(checked);
	}

	// What HTTP/1.1 carries in a field value (RFC 9110, section 5.5): visible characters
	// of ISO-8859-1, spaces and tabs.
	private static boolean isFieldValueCharacter(int c) {
		return c == '\t' || (c >= 0x20 && c < 0x7f) || (c >= 0x80 && c <= 0xff);
	}

	private static boolean isTokenCharacter(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| TOKEN_CHARACTERS.indexOf(c) >= 0;
	}

	private static String[] sorted(Set<String> values) {
		return values.stream().sorted().toArray(String[]::new);
	}

	/**
	 * Builds an {@link HttpCallback}; {@link #build()} checks every rule.
	 */
	public static final class Builder {

		private final String method;

		private final String url;

		private final Map<String, String> headers = new LinkedHashMap<>();

		private @Nullable String body;

		private Duration timeout = DEFAULT_TIMEOUT;

		private Builder(String method, String url) {
			this.method = method;
			this.url = url;
		}

		/**
		 * Set a request header, replacing one of the same name in any case.
		 * @param name the header name
		 * @param value the header value
		 * @return this builder
		 */
		public Builder header(String name, String value) {
			if (name != null) {
				this.headers.keySet().removeIf(name::equalsIgnoreCase);
			}
			this.headers.put(name, value);
			return this;
		}

		/**
		 * Set the request body, sent as UTF-8; only {@code POST}, {@code PUT} and
		 * {@code PATCH} take one.
		 * @param body the body
		 * @return this builder
		 */
		public Builder body(String body) {
			this.body = body;
			return this;
		}

		/**
		 * Set how long to wait for the answer, connecting included; by default
		 * {@link HttpCallback#DEFAULT_TIMEOUT}.
		 * @param timeout the timeout, more than zero
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Build the callback.
		 * @return the callback
		 * @throws InvalidJobException if it breaks a rule
		 */
		public HttpCallback build() {
			return new HttpCallback(this.url, this.method, this.headers, this.body, this.timeout);
		}

	}

}
