package io.github.delayqueue.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

import javax.net.ssl.SSLContext;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.core.RetryJobException;
import org.jspecify.annotations.Nullable;

/**
 * Performs an {@link HttpCallback} and turns the outcome into the listener contract:
 * returns on 2xx; throws {@link HttpCallbackException} (retry on the backoff) or
 * {@link RetryJobException} (retry after {@code Retry-After}) on 408, 429, 5xx, timeouts
 * and connection errors, {@link RateLimitedException} (again after {@code Retry-After},
 * no attempt spent) for 429 and 503 with {@code Retry-After}; throws
 * {@link NonRetryableJobException} on any other answer. Redirects are never followed.
 * <p>
 * The call connects only to the addresses it is given, those that
 * {@link HttpCallbackValidator#checkBeforeCall} checked, so that no second DNS lookup
 * decides where it goes; the request still names the URL's host ({@code Host}, and for
 * {@code https} the TLS server name and the certificate check). It speaks HTTP/1.1 over a
 * connection of its own, closed after the answer, and sends {@code User-Agent:
 * delayqueue/<version>} unless the callback sets a {@code User-Agent}. The JDK's HTTP
 * clients resolve host names themselves, so they cannot be held to checked addresses.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackExecutor {

	/**
	 * Most characters of an answer's body kept in a failure's message.
	 */
	public static final int ERROR_BODY_CHARS = 200;

	private final PinnedConnector connector;

	private Clock clock = Clock.systemUTC();

	private Duration maxRetryAfter = Duration.ofDays(1);

	/**
	 * Create an executor that trusts the certificates the JVM trusts.
	 */
	public HttpCallbackExecutor() {
		this.connector = new PinnedConnector(null);
	}

	/**
	 * Create an executor with a TLS setup of its own, for partners whose certificates
	 * come from a private authority or that ask for a client certificate.
	 * @param sslContext the TLS setup of {@code https} callbacks
	 */
	public HttpCallbackExecutor(SSLContext sslContext) {
		this.connector = new PinnedConnector(sslContext);
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
	 * Perform a callback, connecting to one of the given addresses of its host.
	 * @param callback the callback
	 * @param addresses the addresses the call may connect to, tried in order until one
	 * accepts the connection: those {@link HttpCallbackValidator#checkBeforeCall}
	 * returned
	 * @throws HttpCallbackException if it failed and a later attempt may succeed
	 * @throws RetryJobException if the answer asked to try again after a while
	 * @throws NonRetryableJobException if trying again cannot help
	 * @throws IllegalArgumentException if no address is given
	 */
	public void execute(HttpCallback callback, List<InetAddress> addresses) {
		if (addresses.isEmpty()) {
			throw new IllegalArgumentException("No address to call " + HttpCallback.describe(callback.url()));
		}
		String target = callback.method() + " " + HttpCallback.describe(callback.url());
		try (CallDeadline deadline = new CallDeadline(callback.timeout())) {
			Socket socket = null;
			try {
				socket = this.connector.connect(HttpCallback.parse(callback.url()), addresses, deadline);
				handle(target, Http11Exchange.send(socket, callback, UserAgent.DEFAULT, deadline));
			}
			catch (IOException ex) {
				throw failure(target, ex, deadline);
			}
			finally {
				if (socket != null) {
					CallDeadline.closeQuietly(socket);
				}
			}
		}
	}

	private static HttpCallbackException failure(String target, IOException ex, CallDeadline deadline) {
		// When the time is up the socket is closed under a blocked write or read, which
		// then fails with a plain "Socket closed".
		if (ex instanceof SocketTimeoutException || deadline.hasPassed()) {
			return new HttpCallbackException(target + " timed out after " + deadline.timeout(), 0, ex);
		}
		return new HttpCallbackException(target + " failed: " + causeMessage(ex), 0, ex);
	}

	private void handle(String target, Http11Response response) {
		int status = response.status();
		if (status >= 200 && status < 300) {
			return;
		}
		String failure = "HTTP " + status + " from " + target;
		if (status == 408 || status == 429 || status >= 500) {
			String message = failure + bodyStart(response);
			Duration retryAfter = retryAfter(response);
			if (retryAfter != null && (status == 429 || status == 503)) {
				// The partner is up and asked for a pause: not a failure of the job, so
				// it spends no attempt.
				throw new RateLimitedException(message + " (Retry-After " + retryAfter + ")", retryAfter,
						new HttpCallbackException(message, status, null));
			}
			if (retryAfter != null) {
				throw new RetryJobException(message + " (Retry-After " + retryAfter + ")", retryAfter,
						new HttpCallbackException(message, status, null));
			}
			throw new HttpCallbackException(message, status, null);
		}
		if (status >= 300 && status < 400) {
			String location = response.header("Location");
			throw new NonRetryableJobException(failure + ": redirects are not followed"
					+ ((location != null) ? " (Location: " + HttpCallback.describe(location) + ")" : "")
					+ "; call the final URL");
		}
		throw new NonRetryableJobException(failure + bodyStart(response));
	}

	private @Nullable Duration retryAfter(Http11Response response) {
		String value = response.header("Retry-After");
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
				wait = Duration.between(serverNow(response), at);
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

	private Instant serverNow(Http11Response response) {
		String date = response.header("Date");
		if (date != null) {
			try {
				return ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			}
			catch (DateTimeParseException ex) {
				// An unreadable Date: measured against this clock instead.
			}
		}
		return this.clock.instant();
	}

	private static String bodyStart(Http11Response response) {
		try {
			// UTF-8 takes at most 4 bytes per character: enough bytes, never the whole
			// body.
			byte[] bytes = response.readBodyStart(ERROR_BODY_CHARS * 4);
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

	// The exception names the failure (ConnectException, SSLHandshakeException,
	// SocketException ...).
	private static String causeMessage(IOException ex) {
		String name = ex.getClass().getSimpleName();
		return (ex.getMessage() != null) ? name + ": " + ex.getMessage() : name;
	}

}
