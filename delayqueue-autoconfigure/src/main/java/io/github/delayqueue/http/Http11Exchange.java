package io.github.delayqueue.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Sends a callback's request as HTTP/1.1 over a connection of its own, closed after the
 * answer: the request line, {@code Host} from the URL, a {@code User-Agent} unless the
 * callback sets one, the callback's headers and its body with its length. Nothing asks to
 * upgrade the connection (no {@code Upgrade: h2c}), which some proxies and firewalls
 * refuse.
 *
 * @author delayqueue contributors
 */
final class Http11Exchange {

	// Servers may insist on a length for these methods even without a body.
	private static final Set<String> METHODS_WITH_BODY = Set.of("POST", "PUT", "PATCH");

	private static final String CRLF = "\r\n";

	private Http11Exchange() {
	}

	/**
	 * Send a callback's request and read the head of the answer.
	 * @param socket the connection, used for this request only
	 * @param callback the callback
	 * @param userAgent the {@code User-Agent} to send unless the callback has its own
	 * @param deadline the time the call may take
	 * @return the answer, its body still to be read
	 * @throws IOException if the request cannot be sent or the answer is not HTTP
	 */
	static Http11Response send(Socket socket, HttpCallback callback, String userAgent, CallDeadline deadline)
			throws IOException {
		byte @Nullable [] body = (callback.body() != null) ? callback.body().getBytes(StandardCharsets.UTF_8) : null;
		OutputStream out = new BufferedOutputStream(socket.getOutputStream());
		out.write(head(callback, userAgent, body).getBytes(StandardCharsets.ISO_8859_1));
		if (body != null) {
			out.write(body);
		}
		out.flush();
		socket.setSoTimeout(deadline.remainingMillis());
		return Http11Response.read(new BufferedInputStream(socket.getInputStream()), callback.method());
	}

	static String head(HttpCallback callback, String userAgent, byte @Nullable [] body) {
		// Non-ASCII characters of the path and query are sent percent-encoded as UTF-8.
		URI uri = URI.create(HttpCallback.parse(callback.url()).toASCIIString());
		String path = (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) ? uri.getRawPath() : "/";
		String query = (uri.getRawQuery() != null) ? "?" + uri.getRawQuery() : "";
		StringBuilder head = new StringBuilder();
		head.append(callback.method()).append(' ').append(path).append(query).append(" HTTP/1.1").append(CRLF);
		header(head, "Host", uri.getRawAuthority());
		if (!has(callback.headers(), "User-Agent")) {
			header(head, "User-Agent", userAgent);
		}
		callback.headers().forEach((name, value) -> header(head, name, value));
		if (body != null && !has(callback.headers(), "Content-Type")) {
			header(head, "Content-Type", "text/plain;charset=UTF-8");
		}
		if (body != null || METHODS_WITH_BODY.contains(callback.method())) {
			header(head, "Content-Length", String.valueOf((body != null) ? body.length : 0));
		}
		header(head, "Connection", "close");
		return head.append(CRLF).toString();
	}

	private static void header(StringBuilder head, String name, String value) {
		head.append(name).append(": ").append(value).append(CRLF);
	}

	private static boolean has(Map<String, String> headers, String name) {
		return headers.keySet().stream().anyMatch(name::equalsIgnoreCase);
	}

}
