package io.github.delayqueue.http;

import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import io.github.delayqueue.core.NonRetryableJobException;
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

	private final HttpTestServer server = HttpTestServer.start();

	private final HttpCallbackExecutor executor = new HttpCallbackExecutor();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void sendsMethodHeadersAndBodyAndCompletesOn2xx() {
		this.server.respond("/notify", Response.status(202));
		HttpCallback callback = HttpCallback.post(this.server.url("/notify?order=42"))
			.header("Content-Type", "application/json")
			.header("X-Signature", "abc")
			.body("{\"order\":42,\"note\":\"\u00e9t\u00e9\"}")
			.build();

		assertThatNoException().isThrownBy(() -> this.executor.execute(callback));

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
		this.executor.execute(HttpCallback.put(this.server.url("/text")).body("caf\u00e9").build());

		Request request = this.server.requests("/text").get(0);
		assertThat(request.header("Content-Type")).isEqualTo("text/plain;charset=UTF-8");
		assertThat(request.body()).isEqualTo("caf\u00e9");
	}

	@Test
	void sendsNoBodyForAGet() {
		this.executor.execute(HttpCallback.get(this.server.url("/ping")).build());

		Request request = this.server.requests("/ping").get(0);
		assertThat(request.method()).isEqualTo("GET");
		assertThat(request.body()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 429, 500, 502, 503, 504 })
	void throwsARetryableFailureOnStatusesALaterAttemptMayCure(int status) {
		this.server.respond("/flaky", Response.status(status, "try later"));

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.post(this.server.url("/flaky")).build()))
			.withMessage("HTTP " + status + " from POST " + this.server.url("/flaky") + ": try later")
			.satisfies((ex) -> assertThat(ex.getStatusCode()).isEqualTo(status));
	}

	@Test
	void throwsANonRetryableFailureWithStatusAndTheStartOfTheBodyOnOther4xx() {
		this.server.respond("/orders/42", Response.status(404, "x".repeat(300)));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.delete(this.server.url("/orders/42")).build()))
			.withMessage("HTTP 404 from DELETE " + this.server.url("/orders/42") + ": " + "x".repeat(200) + "...");
	}

	@Test
	void keepsTheQueryOutOfFailureMessages() {
		this.server.respond("/auth", Response.status(401, "bad token"));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(this.server.url("/auth?token=secret")).build()))
			.withMessage("HTTP 401 from GET " + this.server.url("/auth") + "?...: bad token");
	}

	@Test
	void honoursRetryAfterInSeconds() {
		this.server.respond("/busy", Response.status(503, "busy").header("Retry-After", "120"));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(this.server.url("/busy")).build()))
			.satisfies((ex) -> {
				assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofSeconds(120));
				assertThat(ex.getMessage()).startsWith("HTTP 503 from GET " + this.server.url("/busy") + ": busy");
				assertThat(ex.getCause()).isInstanceOf(HttpCallbackException.class);
			});
	}

	@Test
	void honoursRetryAfterAsAnHttpDateMeasuredAgainstTheServersDate() {
		// The JDK server stamps its own Date header: the wait is measured against it.
		String inFiveMinutes = DateTimeFormatter.RFC_1123_DATE_TIME
			.format(ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(5));
		this.server.respond("/limited", Response.status(429).header("Retry-After", inFiveMinutes));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(this.server.url("/limited")).build()))
			.satisfies(
					(ex) -> assertThat(ex.getRetryAfter()).isBetween(Duration.ofSeconds(290), Duration.ofSeconds(301)));
	}

	@Test
	void cutsAnExcessiveRetryAfterAndIgnoresAnUnreadableOne() {
		this.executor.setMaxRetryAfter(Duration.ofHours(1));
		this.server.respond("/forever", Response.status(503).header("Retry-After", "99999999"));
		this.server.respond("/garbled", Response.status(503).header("Retry-After", "soon"));

		assertThatExceptionOfType(RetryJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(this.server.url("/forever")).build()))
			.satisfies((ex) -> assertThat(ex.getRetryAfter()).isEqualTo(Duration.ofHours(1)));
		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(this.server.url("/garbled")).build()));
	}

	@Test
	void throwsARetryableFailureWhenTheServerDoesNotAnswerInTime() {
		this.server.hang("/slow");

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.executor
				.execute(HttpCallback.get(this.server.url("/slow")).timeout(Duration.ofMillis(300)).build()))
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

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.get(url).build()))
			.withMessageStartingWith("GET " + url + " failed: ")
			.withMessageContaining("ConnectException");
	}

	@Test
	void doesNotFollowRedirectsAndMakesThemFinal() {
		this.server.respond("/old",
				Response.status(302).header("Location", this.server.url("localhost", "/new?token=secret")));

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> this.executor.execute(HttpCallback.post(this.server.url("/old")).body("x").build()))
			.withMessage("HTTP 302 from POST " + this.server.url("/old") + ": redirects are not followed (Location: "
					+ this.server.url("localhost", "/new") + "?...); call the final URL");
		assertThat(this.server.requests("/new")).isEmpty();
	}

}
