package io.github.delayqueue.core;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a {@link String} payload as a JSON string without the mapper. In profiles of
 * single sends, Jackson's per-call setup (a serialization context, a generator, a pooled
 * buffer) took about a third of the sending thread's time for a short text, the most
 * common payload, while quoting it takes a few hundred nanoseconds. The shortcut is used
 * only for a mapper that writes strings exactly as it does, checked once on a text with
 * every kind of character that a mapper may escape differently.
 *
 * @author delayqueue contributors
 */
final class JsonStrings {

	// Quotes, backslash, slash, control characters, DEL, non-ASCII, a line separator
	// that JavaScript treats as a line break, a surrogate pair.
	private static final String PROBE = "a\"\\/\u0000\u0001\b\f\n\r\t\u001f\u007f\u00e9\u2028\ud83d\ude00z";

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private JsonStrings() {
	}

	/**
	 * Return whether a mapper writes strings as {@link #quote} does.
	 * @param jsonMapper the mapper
	 * @return whether {@link #quote} may stand in for it
	 */
	static boolean writesLikeQuote(JsonMapper jsonMapper) {
		try {
			return quote(PROBE).equals(jsonMapper.writeValueAsString(PROBE));
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * Return a text as a JSON string, escaped as RFC 8259 requires and as Jackson does by
	 * default: quote, backslash and control characters, nothing else.
	 * @param text the text
	 * @return the JSON string, quotes included
	 */
	static String quote(String text) {
		int length = text.length();
		int first = 0;
		while (first < length && plain(text.charAt(first))) {
			first++;
		}
		if (first == length) {
			return '"' + text + '"';
		}
		StringBuilder json = new StringBuilder(length + 16).append('"').append(text, 0, first);
		for (int i = first; i < length; i++) {
			char c = text.charAt(i);
			if (plain(c)) {
				json.append(c);
			}
			else {
				escape(c, json);
			}
		}
		return json.append('"').toString();
	}

	private static boolean plain(char c) {
		return c >= 0x20 && c != '"' && c != '\\';
	}

	private static void escape(char c, StringBuilder json) {
		switch (c) {
			case '"' -> json.append("\\\"");
			case '\\' -> json.append("\\\\");
			case '\b' -> json.append("\\b");
			case '\f' -> json.append("\\f");
			case '\n' -> json.append("\\n");
			case '\r' -> json.append("\\r");
			case '\t' -> json.append("\\t");
			default -> json.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
		}
	}

}
