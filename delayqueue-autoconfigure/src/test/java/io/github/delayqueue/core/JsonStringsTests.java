package io.github.delayqueue.core;

import java.util.Random;

import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * String payloads written without the mapper must read exactly as the mapper would have
 * written them.
 */
class JsonStringsTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void quotesEveryCharacterAsTheDefaultMapperDoes() {
		StringBuilder every = new StringBuilder();
		for (char c = 0; c < Character.MAX_VALUE; c++) {
			every.append(c);
		}
		assertThat(JsonStrings.quote(every.toString())).isEqualTo(this.mapper.writeValueAsString(every.toString()));
	}

	@Test
	void quotesRandomTextsAsTheDefaultMapperDoesAndReadsBackTheSameText() {
		Random random = new Random(42);
		for (int i = 0; i < 2000; i++) {
			char[] text = new char[random.nextInt(40)];
			for (int j = 0; j < text.length; j++) {
				// Mostly the characters that need escaping, some plain ones.
				text[j] = (char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(Character.MAX_VALUE));
			}
			String value = new String(text);
			String json = JsonStrings.quote(value);
			assertThat(json).isEqualTo(this.mapper.writeValueAsString(value));
			assertThat(this.mapper.readValue(json, String.class)).isEqualTo(value);
		}
	}

	@Test
	void leavesStringsToAMapperThatWritesThemDifferently() {
		assertThat(JsonStrings.writesLikeQuote(this.mapper)).isTrue();
		JsonMapper asciiOnly = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
		assertThat(JsonStrings.writesLikeQuote(asciiOnly)).isFalse();
		JsonMapper escapingSlashes = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES).build();
		assertThat(JsonStrings.writesLikeQuote(escapingSlashes)).isFalse();
	}

}
