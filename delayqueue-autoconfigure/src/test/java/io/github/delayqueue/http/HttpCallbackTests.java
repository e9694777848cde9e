package io.github.delayqueue.http;

import java.time.Duration;
import java.util.Map;

import io.github.delayqueue.core.InvalidJobException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The rules an {@link HttpCallback} enforces when it is built, and its JSON shape.
 */
class HttpCallbackTests {

	private final JsonMapper jsonMapper = JsonMapper.builder().build();

	@Test
	void buildsACallbackWithMethodHeadersBodyAndTimeout() {
		HttpCallback callback = HttpCallback.post("https://partner.example/notify")
			.header("Content-Type", "application/json")
			.body("{\"order\":42}")
			.timeout(Duration.ofSeconds(5))
			.build();

		assertThat(callback.url()).isEqualTo("https://partner.example/notify");
		assertThat(callback.method()).isEqualTo("POST");
		assertThat(callback.headers()).containsExactly(Map.entry("Content-Type", "application/json"));
		assertThat(callback.body()).isEqualTo("{\"order\":42}");
		assertThat(callback.timeout()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void offersAFactoryPerCommonMethodAndDefaultsTheTimeout() {
		assertThat(HttpCallback.get("http://a.example/").build().method()).isEqualTo("GET");
		assertThat(HttpCallback.put("http://a.example/").build().method()).isEqualTo("PUT");
		assertThat(HttpCallback.patch("http://a.example/").build().method()).isEqualTo("PATCH");
		assertThat(HttpCallback.delete("http://a.example/").build().method()).isEqualTo("DELETE");
		assertThat(HttpCallback.method("head", "http://a.example/").build().method()).isEqualTo("HEAD");
		assertThat(HttpCallback.get("http://a.example/").build().timeout()).isEqualTo(HttpCallback.DEFAULT_TIMEOUT);
	}

	@Test
	void replacesAHeaderOfTheSameNameInAnyCase() {
		HttpCallback callback = HttpCallback.get("http://a.example/")
			.header("X-Token", "one")
			.header("x-token", "two")
			.build();

		assertThat(callback.headers()).containsExactly(Map.entry("x-token", "two"));
	}

	@Test
	void refusesSchemesOtherThanHttpAndHttps() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("ftp://files.example/report").build())
			.withMessage("HTTP callback URL 'ftp://files.example/report' must use http or https, not ftp");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("file:///etc/passwd").build())
			.withMessageContaining("must use http or https");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("/relative/path").build())
			.withMessageContaining("must use http or https, not null");
	}

	@Test
	void refusesUnknownMethods() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.method("TRACE", "http://a.example/").build())
			.withMessage("HTTP callback method 'TRACE' is not one of DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
	}

	@Test
	void refusesAUrlWithoutAHost() {
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> HttpCallback.get("http:///path").build())
			.withMessage("HTTP callback URL 'http:///path' has no host");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://bad_host.example/").build())
			.withMessage("HTTP callback URL 'http://bad_host.example/' has no host that is a valid host name");
	}

	@Test
	void refusesAnUnparsableUrlWithoutEchoingItsQuery() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/a b?token=secret").build())
			.withMessageStartingWith("HTTP callback URL 'http://a.example/a b?...' is not a valid URI")
			.withMessageNotContaining("secret");
	}

	@Test
	void refusesAPortOutOfRange() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example:70000/").build())
			.withMessage("HTTP callback URL 'http://a.example:70000/' has port 70000, not 1 to 65535");
	}

	@Test
	void refusesUserInformationInTheUrl() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("https://user:secret@a.example/").build())
			.withMessageContaining("must not carry user information")
			.withMessageNotContaining("secret");
	}

	@Test
	void refusesABodyForMethodsThatTakeNone() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/x").body("hello").build())
			.withMessage("HTTP callback GET http://a.example/x must not have a body; only POST, PUT and PATCH do");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.delete("http://a.example/x").body("hello").build())
			.withMessageContaining("DELETE");
	}

	@Test
	void refusesHeadersTheHttpClientSetsItself() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/").header("Host", "other.example").build())
			.withMessage("HTTP callback header 'Host' is set by the HTTP client and must not be given");
	}

	@Test
	void refusesHeaderInjection() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/").header("X-A", "1\r\nX-Evil: 2").build())
			.withMessage("HTTP callback header 'X-A' must have a value without line breaks");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/").header("X A", "1").build())
			.withMessage("HTTP callback header name 'X A' is not a valid HTTP token");
	}

	@Test
	void refusesATimeoutThatIsNotPositive() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> HttpCallback.get("http://a.example/").timeout(Duration.ZERO).build())
			.withMessage("Timeout of HTTP callback http://a.example/ must be more than zero, was PT0S");
	}

	@Test
	void roundTripsThroughJsonWithoutTypeInformation() {
		HttpCallback callback = HttpCallback.patch("https://partner.example/orders/42?sig=abc")
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer t")
			.body("{\"state\":\"closed\"}")
			.timeout(Duration.ofMillis(2500))
			.build();

		String json = this.jsonMapper.writeValueAsString(callback);

		assertThat(json).doesNotContain("@class").contains("\"url\":\"https://partner.example/orders/42?sig=abc\"");
		assertThat(this.jsonMapper.readValue(json, HttpCallback.class)).isEqualTo(callback);
	}

	@Test
	void readsHandWrittenJsonWithDefaultsAndChecksItsRules() {
		HttpCallback minimal = this.jsonMapper.readValue("{\"url\":\"http://a.example/\",\"method\":\"get\"}",
				HttpCallback.class);

		assertThat(minimal).isEqualTo(HttpCallback.get("http://a.example/").build());
		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> this.jsonMapper.readValue("{\"url\":\"gopher://a.example/\",\"method\":\"GET\"}",
					HttpCallback.class))
			.withStackTraceContaining("must use http or https");
	}

}
