package io.github.delayqueue.test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP server for tests, on a free port of 127.0.0.1, plain or over TLS: records
 * every request and answers each path with scripted responses, the last one repeating;
 * unscripted paths answer 200. A path told to hang answers only when the server closes.
 */
public final class HttpTestServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	private final Map<String, Deque<Response>> responses = new ConcurrentHashMap<>();

	private final CountDownLatch closing = new CountDownLatch(1);

	private final String scheme;

	private HttpTestServer(@Nullable SSLContext tls) throws IOException {
		InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		if (tls != null) {
			HttpsServer https = HttpsServer.create(address, 0);
			https.setHttpsConfigurator(new HttpsConfigurator(tls));
			this.server = https;
		}
		else {
			this.server = HttpServer.create(address, 0);
		}
		this.scheme = (tls != null) ? "https" : "http";
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	public static HttpTestServer start() {
		return start(null);
	}

	/**
	 * Start a server that speaks HTTPS only.
	 * @param tls the server's certificate and key
	 * @return the server
	 */
	public static HttpTestServer startHttps(SSLContext tls) {
		return start(tls);
	}

	private static HttpTestServer start(@Nullable SSLContext tls) {
		try {
			return new HttpTestServer(tls);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start an HTTP server for tests", ex);
		}
	}

	public int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * Return the URL of a path on 127.0.0.1.
	 * @param path the path, starting with a slash
	 * @return the URL
	 */
	public String url(String path) {
		return url("127.0.0.1", path);
	}

	/**
	 * Return the URL of a path under another name of this machine, such as
	 * {@code localhost}.
	 * @param host the host name
	 * @param path the path, starting with a slash
	 * @return the URL
	 */
	public String url(String host, String path) {
		return this.scheme + "://" + host + ":" + port() + path;
	}

	/**
	 * Script the answers of a path, in order; the last one repeats.
	 * @param path the path
	 * @param answers the answers
	 */
	public void respond(String path, Response... answers) {
		this.responses.put(path, new ArrayDeque<>(List.of(answers)));
	}

	/**
	 * Make a path answer only when the server closes.
	 * @param path the path
	 */
	public void hang(String path) {
		respond(path, new Response(-1, Map.of(), "", false));
	}

	/**
	 * Return the requests received for a path, oldest first.
	 * @param path the path
	 * @return the requests
	 */
	public List<Request> requests(String path) {
		return this.requests.stream().filter((request) -> request.path().equals(path)).toList();
	}

	@Override
	public void close() {
		this.closing.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			this.requests.add(new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
					exchange.getProtocol(), Map.copyOf(exchange.getRequestHeaders()), body, serverName(exchange),
					System.nanoTime()));
			Response response = next(path);
			if (response.status() < 0) {
				awaitClosing();
				return;
			}
			response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
			byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
			boolean empty = bytes.length == 0 || exchange.getRequestMethod().equals("HEAD");
			// A length of 0 makes the JDK server send the body in chunks.
			exchange.sendResponseHeaders(response.status(), empty ? -1 : (response.chunked() ? 0 : bytes.length));
			if (!empty) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			}
		}
	}

	// The host name the client asked for in its TLS handshake (SNI).
	private static @Nullable String serverName(HttpExchange exchange) {
		if (exchange instanceof HttpsExchange https) {
			SSLSession session = https.getSSLSession();
			if (session instanceof ExtendedSSLSession extended) {
				for (SNIServerName name : extended.getRequestedServerNames()) {
					if (name instanceof SNIHostName hostName) {
						return hostName.getAsciiName();
					}
				}
			}
		}
		return null;
	}

	private Response next(String path) {
		Deque<Response> scripted = this.responses.get(path);
		if (scripted == null) {
			return new Response(200, Map.of(), "", false);
		}
		synchronized (scripted) {
			return (scripted.size() > 1) ? scripted.poll() : scripted.peek();
		}
	}

	private void awaitClosing() {
		try {
			this.closing.await(1, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A request as received.
	 *
	 * @param method the method
	 * @param path the path
	 * @param query the raw query, or {@code null}
	 * @param protocol the protocol of the request line, such as {@code HTTP/1.1}
	 * @param headers the headers; the JDK server capitalizes their names
	 * @param body the body as UTF-8
	 * @param serverName the host name asked for in the TLS handshake, or {@code null}
	 * @param receivedNanos when it arrived, by {@link System#nanoTime()}
	 */
	public record Request(String method, String path, @Nullable String query, String protocol,
			Map<String, List<String>> headers, String body, @Nullable String serverName, long receivedNanos) {

		public @Nullable String header(String name) {
			return this.headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
				.map((entry) -> String.join(",", entry.getValue()))
				.findFirst()
				.orElse(null);
		}

	}

	/**
	 * A scripted answer.
	 *
	 * @param status the status
	 * @param headers the headers
	 * @param body the body
	 * @param chunked whether the body is sent in chunks rather than with its length
	 */
	public record Response(int status, Map<String, String> headers, String body, boolean chunked) {

		public static Response status(int status) {
			return new Response(status, Map.of(), "", false);
		}

		public static Response status(int status, String body) {
			return new Response(status, Map.of(), body, false);
		}

		public Response header(String name, String value) {
			Map<String, String> headers = new java.util.LinkedHashMap<>(this.headers);
			headers.put(name, value);
			return new Response(this.status, Map.copyOf(headers), this.body, this.chunked);
		}

		public Response inChunks() {
			return new Response(this.status, this.headers, this.body, true);
		}

	}

}
