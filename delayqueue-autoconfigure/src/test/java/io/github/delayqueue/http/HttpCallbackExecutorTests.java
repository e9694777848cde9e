package io.github.delayqueue.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.github.delayqueue.core.NonRetryableJobException;
import io.github.delayqueue.core.RateLimitedException;
import io.github.delayqueue.core.RetryJobException;
import io.github.delayqueue.test.HttpTestServer;
import io.github.delayqueue.test.HttpTestServer.Request;
import io.github.delayqueue.test.HttpTestServer.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * How {@link HttpCallbackExecutor} performs a callback against a real HTTP server and
 * maps each outcome to the listener contract.
 */
class HttpCallbackExecutorTests {

	private static final InetAddress LOOPBACK = address("127.0.0.1");

	private final HttpTestServer server = HttpTestServer.start();

	private final HttpCallbackExecutor executor = new HttpCallbackExecutor();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	// The test server listens on 127.0.0.1 only.
	private void execute(HttpCallback callback) {
		this.executor.execute(callback, List.of(LOOPBACK));
	}

	@Test
	void sendsMethodHeadersAndBodyAndCompletesOn2xx() {
		this.server.respond("/notify", Response.status(202));
		HttpCallback callback = HttpCallback.post(this.server.url("/notify?order=42"))
			.header("Content-Type", "application/json")
			.header("X-Signature", "abc")
			.body("{\"order\":42,\"note\":\"\u00e9t\u00e9\"}")
			.build();

		assertThatNoException().isThrownBy(() -> execute(callback));

		assertThat(this.server.requests("/notify")).singleElement().satisfies((request) -> {
			assertThat(request.method()).isEqualTo("POST");
			assertThat(request.query()).isEqualTo("order=42");
			assertThat(request.header("Content-Type")).isEqualTo("application/json");
			assertThat(request.header("X-Signature")).isEqualTo("abc");
			assertThat(request.body()).isEqualTo("{\"order\":42,\"note\":\"\u00e9t\u00e9\"}");
		});
	}

	@Test
	void sendsABodyWithoutContentTypeAsUtf8Text() {
		execute(HttpCallback.put(this.server.url("/text")).body("caf\u00e9").build());

		Request request = this.server.requests("/text").get(0);
		assertThat(request.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
		assertThat(request.body()).isEqualTo("caf\u00e9");
	}

	@Test
	void sendsNoBodyForAGet() {
		execute(HttpCallback.get(this.server.url("/ping")).build());

		Request request = this.server.requests("/ping").get(0);
		assertThat(request.method()).isEqualTo("GET");
		assertThat(request.body()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 429, 500, 502, 503, 504 })
	void throwsARetryableFailureOnStatusesALaterAttemptMayCure(int status) {
		this.server.respond("/flaky", Response.status(status, "try later"));

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> execute(HttpCallback.post(this.server.url("/flaky")).build()))
			.withMessage("HTTP " + status + " from POST " + this.server.url("/flaky") + ": try later")
			.satisfies((ex) -> assertThat(ex.getStatusCode()).isEqualTo(status));
	}

	@Test
	void throwsANonRetryableFailureWithStatusAndTheStartOfTheBodyOnOther4xx() {
		this.server.respond("/orders/42", Response.status(404, "x".repeat(300)));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> execute(HttpCallback.delete(this.server.url("/orders/42")).build()))
			.withMessage("HTTP 404 from DELETE " + this.server.url("/orders/42") + ": " + "x".repeat(200) + "...");
	}

	@Test
	void keepsTheQueryOutOfFailureMessages() {
		this.server.respond("/auth", Response.status(401, "bad token"));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/auth?token=secret")).build()))
			.withMessage("HTTP 401 from GET " + this.server.url("/auth") + "?...: bad token");
	}

	@Test
	void honoursRetryAfterInSeconds() {
		this.server.respond("/busy", Response.status(503, "busy").header("Retry-After", "120"));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/busy")).build()))
			.satisfies((ex) -> {
				assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(120));
				assertThat(ex.getMessage()).startsWith("HTTP 503 from GET " + this.server.url("/busy") + ": busy");
				assertThat(ex.getCause()).isInstanceOf(HttpCallbackException.class);
			});
	}

	@Test
	void reports429And503WithRetryAfterAsRateLimitedSoThatNoAttemptIsSpent() {
		this.server.respond("/limited", Response.status(429).header("Retry-After", "7"));
		this.server.respond("/unavailable", Response.status(503).header("Retry-After", "3"));
		this.server.respond("/broken", Response.status(500).header("Retry-After", "5"));

		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/limited")).build()))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(7)));
		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/unavailable")).build()))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(3)));
		// A failing partner that names a wait still spends the attempt.
		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/broken")).build()))
			.isNotInstanceOf(RateLimitedException.class)
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(5)));
	}

	@Test
	void honoursRetryAfterAsAnHttpDateMeasuredAgainstTheServersDate() {
		// The JDK server stamps its own Date header: the wait is measured against it.
		String inFiveMinutes = DateTimeFormatter.RFC_1123_DATE_TIME
			.format(ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(5));
		this.server.respond("/limited", Response.status(429).header("Retry-After", inFiveMinutes));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/limited")).build()))
			.satisfies(
					(ex) -> assertThat(ex.getRetryAfter()).isBetween(Duration.ofSeconds(290), Duration.ofSeconds(301)));
	}

	@Test
	void cutsAnExcessiveRetryAfterAndIgnoresAnUnreadableOne() {
		this.executor.setMaxRetryAfter(Duration.ofHours(1));
		this.server.respond("/forever", Response.status(503).header("Retry-After", "99999999"));
		this.server.respond("/garbled", Response.status(503).header("Retry-After", "soon"));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/forever")).build()))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofHours(1)));
		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> execute(HttpCallback.get(this.server.url("/garbled")).build()));
	}

	@Test
	void throwsARetryableFailureWhenTheServerDoesNotAnswerInTime() {
		this.server.hang("/slow");

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(
					() -> execute(HttpCallback.get(this.server.url("/slow")).timeout(Duration.ofMillis(300)).build()))
			.withMessage("GET " + this.server.url("/slow") + " timed out after PT0.3S")
			.satisfies((ex) -> assertThat(ex.getStatusCode()).isZero());
	}

	@Test
	void throwsARetryableFailureWhenNothingListens() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String url = "http://127.0.0.1:" + closedPort + "/gone";

		assertThatExceptionOfType(HttpCallbackException.class).isThrownBy(() -> execute(HttpCallback.get(url).build()))
			.withMessageStartingWith("GET " + url + " failed: ")
			.withMessageContaining("ConnectException");
	}

	@Test
	void doesNotFollowRedirectsAndMakesThemFinal() {
		this.server.respond("/old",
				Response.status(302).header("Location", this.server.url("localhost", "/new?token=secret")));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> execute(HttpCallback.post(this.server.url("/old")).body("x").build()))
			.withMessage("HTTP 302 from POST " + this.server.url("/old") + ": redirects are not followed (Location: "
					+ this.server.url("localhost", "/new") + "?...); call the final URL");
		assertThat(this.server.requests("/new")).isEmpty();
	}

	@Test
	void speaksHttp11WithoutAskingToUpgradeAndNamesTheLibraryAsUserAgent() {
		execute(HttpCallback.post(this.server.url("/plain")).body("x").build());

		Request request = this.server.requests("/plain").get(0);
		assertThat(request.protocol()).isEqualTo("HTTP/1.1");
		assertThat(request.header("Upgrade")).isNull();
		assertThat(request.header("HTTP2-Settings")).isNull();
		assertThat(request.header("Connection")).isEqualTo("close");
		assertThat(request.header("User-Agent")).matches("delayqueue/\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
	}

	@Test
	void sendsTheUserAgentACallbackSets() {
		execute(HttpCallback.get(this.server.url("/agent")).header("user-agent", "shop/2.1").build());

		assertThat(this.server.requests("/agent").get(0).headers().get("User-agent")).containsExactly("shop/2.1");
	}

	@Test
	void connectsToTheGivenAddressAndNamesTheHostOfTheUrl() {
		// .test names never resolve (RFC 6761): only the given address can be reached.
		String url = this.server.url("callback.test", "/pinned");

		execute(HttpCallback.get(url).build());

		assertThat(this.server.requests("/pinned")).singleElement()
			.satisfies(
					(request) -> assertThat(request.header("Host")).isEqualTo("callback.test:" + this.server.port()));
	}

	@Test
	void triesTheNextAddressWhenOneRefusesTheConnection() {
		// The server listens on 127.0.0.1 only, so 127.0.0.2 refuses the connection.
		this.executor.execute(HttpCallback.get(this.server.url("callback.test", "/second")).build(),
				List.of(address("127.0.0.2"), LOOPBACK));

		assertThat(this.server.requests("/second")).hasSize(1);
	}

	@Test
	void readsTheStartOfABodySentInChunks() {
		this.server.respond("/chunked", Response.status(422, "order 42 is closed ".repeat(20)).inChunks());

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> execute(HttpCallback.post(this.server.url("/chunked")).build()))
			.withMessage("HTTP 422 from POST " + this.server.url("/chunked") + ": "
					+ "order 42 is closed ".repeat(20).substring(0, 200) + "...");
	}

	@Test
	void timesOutWhenTheServerDoesNotReadTheBody() throws Exception {
		try (ServerSocket deaf = new ServerSocket(0, 1, LOOPBACK)) {
			// Accepted by the kernel, never read: the body fills the buffers and the
			// write blocks until the call's time is up.
			String url = "http://127.0.0.1:" + deaf.getLocalPort() + "/deaf";
			HttpCallback callback = HttpCallback.post(url)
				.body("x".repeat(16 * 1024 * 1024))
				.timeout(Duration.ofMillis(500))
				.build();

			assertThatExceptionOfType(HttpCallbackException.class).isThrownBy(() -> execute(callback))
				.withMessage("POST " + url + " timed out after PT0.5S");
		}
	}

	@Test
	void failsRetryablyOnAnAnswerThatIsNotHttp() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, LOOPBACK)) {
			Thread answering = new Thread(() -> {
				try (Socket socket = server.accept()) {
					socket.getOutputStream().write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII));
				}
				catch (IOException ex) {
					// The test fails on the client's side.
				}
			});
			answering.start();
			String url = "http://127.0.0.1:" + server.getLocalPort() + "/ssh";

			assertThatExceptionOfType(HttpCallbackException.class)
				.isThrownBy(() -> execute(HttpCallback.get(url).build()))
				.withMessage(
						"GET " + url + " failed: ProtocolException: Not an HTTP/1.x answer: 'SSH-2.0-OpenSSH_9.2'");
			answering.join();
		}
	}

	private static InetAddress address(String literal) {
		try {
			return InetAddress.getByName(literal);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
