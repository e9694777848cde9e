package io.github.delayqueue.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RetryJobException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Performs an {@link HttpCallback} with Spring's {@link RestClient} on the JDK HTTP
 * client and turns the outcome into the listener contract: returns on 2xx; throws
 * {@link HttpCallbackException} (retry on the backoff) or {@link RetryJobException}
 * (retry after {@code Retry-After}) on 408, 429, 5xx, timeouts and connection errors;
 * throws {@link NonRetryableJobException} on any other answer. Redirects are never
 * followed.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackExecutor {

	/**
	 * Most characters of an answer's body kept in a failure's message.
	 */
	public static final int ERROR_BODY_CHARS = 200;

	// Callbacks choose their own timeout but the JDK request factory has one per
	// instance: one client per distinct timeout, a few in practice, bounded against odd
	// callers.
	private static final int MAX_CACHED_CLIENTS = 64;

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

	private final HttpClient httpClient;

	private final Map<Duration, RestClient> clients = new ConcurrentHashMap<>();

	private Clock clock = Clock.systemUTC();

	private Duration maxRetryAfter = Duration.ofDays(1);

	/**
	 * Create an executor on a JDK HTTP client that never follows redirects.
	 */
	public HttpCallbackExecutor() {
		this(HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(CONNECT_TIMEOUT)
			.build());
	}

	/**
	 * Create an executor on the given JDK HTTP client; give it
	 * {@link HttpClient.Redirect#NEVER}, or redirects escape the allow-list.
	 * @param httpClient the client
	 */
	public HttpCallbackExecutor(HttpClient httpClient) {
		this.httpClient = httpClient;
	}

	/**
	 * Set the clock that {@code Retry-After} dates are measured against when the answer
	 * carries no {@code Date} header.
	 * @param clock the clock
	 */
	public void setClock(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Set the longest wait a {@code Retry-After} may ask for; longer ones are cut to it.
	 * @param maxRetryAfter the limit, one day by default
	 */
	public void setMaxRetryAfter(Duration maxRetryAfter) {
		this.maxRetryAfter = maxRetryAfter;
	}

	/**
	 * Perform a callback.
	 * @param callback the callback
	 * @throws HttpCallbackException if it failed and a later attempt may succeed
	 * @throws RetryJobException if the answer asked to try again after a while
	 * @throws NonRetryableJobException if trying again cannot help
	 */
	public void execute(HttpCallback callback) {
		URI uri = HttpCallback.parse(callback.url());
		String target = callback.method() + " " + HttpCallback.describe(callback.url());
		RestClient.RequestBodySpec request = client(callback.timeout()).method(HttpMethod.valueOf(callback.method()))
			.uri(uri)
			.headers((headers) -> callback.headers().forEach(headers::set));
		if (callback.body() != null) {
			if (callback.headers().keySet().stream().noneMatch(HttpHeaders.CONTENT_TYPE::equalsIgnoreCase)) {
				request.header(HttpHeaders.CONTENT_TYPE, "text/plain;charset=UTF-8");
			}
			request.body(callback.body().getBytes(StandardCharsets.UTF_8));
		}
		try {
			request.exchange((clientRequest, response) -> {
				handle(target, response);
				return null;
			}, true);
		}
		catch (ResourceAccessException ex) {
			if (isTimeout(ex)) {
				throw new HttpCallbackException(target + " timed out after " + callback.timeout(), 0, ex);
			}
			throw new HttpCallbackException(target + " failed: " + causeMessage(ex), 0, ex);
		}
		catch (RestClientException ex) {
			throw new HttpCallbackException(target + " failed: " + causeMessage(ex), 0, ex);
		}
		catch (IllegalArgumentException ex) {
			// The HTTP client refused the request itself: the same request would be
			// refused again.
			throw new NonRetryableJobException(target + " cannot be sent: " + ex.getMessage(), ex);
		}
	}

	private void handle(String target, ClientHttpResponse response) throws IOException {
		int status = response.getStatusCode().value();
		if (status >= 200 && status < 300) {
			return;
		}
		String failure = "HTTP " + status + " from " + target;
		if (status == 408 || status == 429 || status >= 500) {
			String message = failure + bodyStart(response);
			Duration retryAfter = retryAfter(response.getHeaders());
			if (retryAfter != null) {
				throw new RetryJobException(message + " (Retry-After " + retryAfter + ")", retryAfter,
						new HttpCallbackException(message, status, null));
			}
			throw new HttpCallbackException(message, status, null);
		}
		if (status >= 300 && status < 400) {
			String location = response.getHeaders().getFirst(HttpHeaders.LOCATION);
			throw new NonRetryableJobException(failure + ": redirects are not followed"
					+ ((location != null) ? " (Location: " + HttpCallback.describe(location) + ")" : "")
					+ "; call the final URL");
		}
		throw new NonRetryableJobException(failure + bodyStart(response));
	}

	private @Nullable Duration retryAfter(HttpHeaders headers) {
		String value = headers.getFirst(HttpHeaders.RETRY_AFTER);
		if (value == null || value.isBlank()) {
			return null;
		}
		Duration wait;
		String trimmed = value.trim();
		if (trimmed.chars().allMatch(Character::isDigit)) {
			try {
				wait = Duration.ofSeconds(Long.parseLong(trimmed));
			}
			catch (NumberFormatException ex) {
				wait = this.maxRetryAfter;
			}
		}
		else {
			try {
				Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
				// Measured against the server's own Date when it sent one: no clock skew.
				wait = Duration.between(serverNow(headers), at);
			}
			catch (DateTimeParseException ex) {
				return null;
			}
		}
		if (wait.isNegative()) {
			return Duration.ZERO;
		}
		return (wait.compareTo(this.maxRetryAfter) > 0) ? this.maxRetryAfter : wait;
	}

	private Instant serverNow(HttpHeaders headers) {
		try {
			long date = headers.getDate();
			return (date >= 0) ? Instant.ofEpochMilli(date) : this.clock.instant();
		}
		catch (IllegalArgumentException ex) {
			return this.clock.instant();
		}
	}

	private static String bodyStart(ClientHttpResponse response) {
		try (InputStream body = response.getBody()) {
			// UTF-8 takes at most 4 bytes per character: enough bytes, never the whole
			// body.
			byte[] bytes = body.readNBytes(ERROR_BODY_CHARS * 4);
			String text = new String(bytes, StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip();
			if (text.isEmpty()) {
				return "";
			}
			return ": " + ((text.length() > ERROR_BODY_CHARS) ? text.substring(0, ERROR_BODY_CHARS) + "..." : text);
		}
		catch (IOException ex) {
			return " (body unreadable: " + ex.getMessage() + ")";
		}
	}

	private static boolean isTimeout(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof HttpTimeoutException) {
				return true;
			}
		}
		return false;
	}

	// The first cause below Spring's wrapper names the failure (ConnectException,
	// SSLHandshakeException, UnresolvedAddressException ...); deeper ones rarely help.
	private static String causeMessage(RestClientException ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		String name = cause.getClass().getSimpleName();
		return (cause.getMessage() != null) ? name + ": " + cause.getMessage() : name;
	}

	private RestClient client(Duration timeout) {
		RestClient client = this.clients.get(timeout);
		if (client != null) {
			return client;
		}
		client = createClient(timeout);
		if (this.clients.size() < MAX_CACHED_CLIENTS) {
			this.clients.putIfAbsent(timeout, client);
		}
		return client;
	}

	private RestClient createClient(Duration timeout) {
		JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(this.httpClient);
		requestFactory.setReadTimeout(timeout);
		// Only raw bytes are sent and read: no default (JSON, XML ...) converters, and no
		// user customizers that could add credentials meant for other services.
		return RestClient.builder()
			.requestFactory(requestFactory)
			.configureMessageConverters(
					(converters) -> converters.addCustomConverter(new ByteArrayHttpMessageConverter()))
			.build();
	}

}
