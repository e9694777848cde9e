package io.github.delayqueue.http;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The allow-list of {@link HttpCallbackValidator}, on its own and applied by the template
 * when a job is sent.
 */
@ExtendWith(RedisExtension.class)
class HttpCallbackValidatorTests {

	private final HttpCallbackValidator validator = new HttpCallbackValidator("http-callback",
			List.of("partner.example", "*.hooks.example", "10.0.0.7", "[::1]"));

	@Test
	void allowsListedHostsInAnyCaseAndSubdomainsOfAWildcard() {
		assertThat(this.validator.isAllowed("partner.example")).isTrue();
		assertThat(this.validator.isAllowed("PARTNER.Example.")).isTrue();
		assertThat(this.validator.isAllowed("eu.hooks.example")).isTrue();
		assertThat(this.validator.isAllowed("10.0.0.7")).isTrue();
		assertThat(this.validator.isAllowed("[::1]")).isTrue();
	}

	@Test
	void refusesHostsThatOnlyResembleListedOnes() {
		assertThat(this.validator.isAllowed("hooks.example")).isFalse();
		assertThat(this.validator.isAllowed("evilhooks.example")).isFalse();
		assertThat(this.validator.isAllowed("partner.example.evil.example")).isFalse();
		assertThat(this.validator.isAllowed("api.partner.example")).isFalse();
		assertThat(this.validator.isAllowed("10.0.0.8")).isFalse();
	}

	@Test
	void refusesACallbackToAnUnlistedHostNamingHostAndProperty() {
		HttpCallback callback = HttpCallback.post("https://evil.example/steal?token=secret").body("x").build();

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.validate("http-callback", callback))
			.withMessage("HTTP callback host 'evil.example' of POST https://evil.example/steal?... is not in "
					+ "delayqueue.http-callback.allowed-hosts");
	}

	@Test
	void allowsEveryHostWhenTheListIsEmpty() {
		HttpCallbackValidator open = new HttpCallbackValidator("http-callback", List.of());

		assertThatNoException()
			.isThrownBy(() -> open.validate("http-callback", HttpCallback.get("https://anything.example/").build()));
	}

	@Test
	void refusesOtherPayloadsOnTheCallbackTopicOnly() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.validate("http-callback", "https://partner.example/"))
			.withMessage("Topic 'http-callback' takes io.github.delayqueue.http.HttpCallback payloads, "
					+ "not java.lang.String");
		assertThatNoException().isThrownBy(() -> this.validator.validate("orders", "anything"));
	}

	@Test
	void refusesAllowListEntriesThatAreNotHosts() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("https://partner.example")))
			.withMessageContaining("delayqueue.http-callback.allowed-hosts entry 'https://partner.example'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("partner.example:8443")));
		assertThatIllegalArgumentException().isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("*")));
	}

	@Test
	void theTemplateRefusesARefusedHostBeforeWritingAnything(RedisTestServer server) {
		try (DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			DelayQueueTemplate template = fixture.template();
			template.setPayloadValidators(List.of(this.validator));

			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> template.send("http-callback", HttpCallback.get("https://evil.example/").build(),
						Duration.ofMinutes(5)))
				.withMessageContaining("'evil.example'");
			assertThat(template.stats("http-callback")).isEqualTo(new TopicStats("http-callback", 0, 0, 0, 0));

			String id = template.send("http-callback", HttpCallback.get("https://partner.example/").build(),
					Duration.ofMinutes(5));
			assertThat(template.find("http-callback", id)).isPresent();
		}
	}

}
