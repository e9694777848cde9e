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

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP server for tests, on a free port of 127.0.0.1: records every request and
 * answers each path with scripted responses, the last one repeating; unscripted paths
 * answer 200. A path told to hang answers only when the server closes.
 */
public final class HttpTestServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	private final Map<String, Deque<Response>> responses = new ConcurrentHashMap<>();

	private final CountDownLatch closing = new CountDownLatch(1);

	private HttpTestServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	public static HttpTestServer start() {
		try {
			return new HttpTestServer();
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
		return "http://" + host + ":" + port() + path;
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
		respond(path, new Response(-1, Map.of(), ""));
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
					Map.copyOf(exchange.getRequestHeaders()), body, System.nanoTime()));
			Response response = next(path);
			if (response.status() < 0) {
				awaitClosing();
				return;
			}
			response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
			byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
			boolean empty = bytes.length == 0 || exchange.getRequestMethod().equals("HEAD");
			exchange.sendResponseHeaders(response.status(), empty ? -1 : bytes.length);
			if (!empty) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			}
		}
	}

	private Response next(String path) {
		Deque<Response> scripted = this.responses.get(path);
		if (scripted == null) {
			return new Response(200, Map.of(), "");
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
	 * @param headers the headers; the JDK server capitalizes their names
	 * @param body the body as UTF-8
	 * @param receivedNanos when it arrived, by {@link System#nanoTime()}
	 */
	public record Request(String method, String path, @Nullable String query, Map<String, List<String>> headers,
			String body, long receivedNanos) {

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
	 */
	public record Response(int status, Map<String, String> headers, String body) {

		public static Response status(int status) {
			return new Response(status, Map.of(), "");
		}

		public static Response status(int status, String body) {
			return new Response(status, Map.of(), body);
		}

		public Response header(String name, String value) {
			Map<String, String> headers = new java.util.LinkedHashMap<>(this.headers);
			headers.put(name, value);
			return new Response(this.status, Map.copyOf(headers), this.body);
		}

	}

}
