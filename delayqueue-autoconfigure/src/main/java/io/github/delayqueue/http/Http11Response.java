package io.github.delayqueue.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The answer to a callback's HTTP/1.1 request: its status, its headers, and as much of
 * its body as a failure's message shows. Interim (1xx) answers are skipped. The head is
 * bounded, so that a server cannot make the application hold an endless one.
 *
 * @author delayqueue contributors
 */
final class Http11Response {

	private static final int MAX_LINE = 8 * 1024;

	private static final int MAX_HEADERS = 100;

	private final int status;

	private final Map<String, String> headers;

	private final InputStream in;

	private final boolean bodyless;

	private Http11Response(int status, Map<String, String> headers, InputStream in, boolean bodyless) {
		this.status = status;
		this.headers = headers;
		this.in = in;
		this.bodyless = bodyless;
	}

	/**
	 * Read the head of an answer.
	 * @param in the connection's input
	 * @param method the request's method: the answer to a {@code HEAD} has no body
	 * @return the answer
	 * @throws IOException if the connection fails or what arrives is not an HTTP answer
	 */
	static Http11Response read(InputStream in, String method) throws IOException {
		while (true) {
			String statusLine = readLine(in, true);
			int status = parseStatus(statusLine);
			Map<String, String> headers = readHeaders(in);
			if (status < 100 || status >= 200 || status == 101) {
				boolean bodyless = method.equals("HEAD") || status < 200 || status == 204 || status == 304;
				return new Http11Response(status, headers, in, bodyless);
			}
		}
	}

	/**
	 * Return the status code.
	 * @return the status
	 */
	int status() {
		return this.status;
	}

	/**
	 * Return a header's value; a header sent several times gives its first value.
	 * @param name the name, in any case
	 * @return the value, or {@code null} if absent
	 */
	@Nullable String header(String name) {
		return this.headers.get(name);
	}

	/**
	 * Read the start of the body, decoded from chunks where it was sent in chunks.
	 * @param max the most bytes to read
	 * @return the bytes, at most {@code max}
	 * @throws IOException if the connection fails or the chunks are malformed
	 */
	byte[] readBodyStart(int max) throws IOException {
		if (this.bodyless) {
			return new byte[0];
		}
		String encoding = header("Transfer-Encoding");
		if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
			return readChunks(max);
		}
		String length = header("Content-Length");
		if (length != null) {
			try {
				return this.in.readNBytes((int) Math.min(max, Long.parseLong(length.trim())));
			}
			catch (NumberFormatException ex) {
				throw new ProtocolException("Malformed Content-Length '" + length + "'");
			}
		}
		return this.in.readNBytes(max);
	}

	private byte[] readChunks(int max) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (body.size() < max) {
			String sizeLine = readLine(this.in, false);
			int extension = sizeLine.indexOf(';');
			long size;
			try {
				size = Long.parseLong(((extension >= 0) ? sizeLine.substring(0, extension) : sizeLine).trim(), 16);
			}
			catch (NumberFormatException ex) {
				throw new ProtocolException("Malformed chunk size '" + sizeLine + "'");
			}
			if (size <= 0) {
				break;
			}
			int wanted = (int) Math.min(size, max - body.size());
			byte[] chunk = this.in.readNBytes(wanted);
			body.write(chunk);
			if (chunk.length < wanted || wanted < size) {
				break;
			}
			readLine(this.in, false);
		}
		return body.toByteArray();
	}

	private static int parseStatus(String line) throws ProtocolException {
		// HTTP/1.1 503 Service Unavailable
		if (line.startsWith("HTTP/1.") && line.length() >= 12 && line.charAt(8) == ' '
				&& (line.length() == 12 || line.charAt(12) == ' ')) {
			String code = line.substring(9, 12);
			if (code.chars().allMatch(Character::isDigit)) {
				return Integer.parseInt(code);
			}
		}
		throw new ProtocolException("Not an HTTP/1.x answer: '" + shorten(line) + "'");
	}

	private static Map<String, String> readHeaders(InputStream in) throws IOException {
		Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		for (int count = 0;; count++) {
			String line = readLine(in, false);
			if (line.isEmpty()) {
				return headers;
			}
			if (count == MAX_HEADERS) {
				throw new ProtocolException("The answer has more than " + MAX_HEADERS + " headers");
			}
			int colon = line.indexOf(':');
			if (colon <= 0) {
				throw new ProtocolException("Malformed header line '" + shorten(line) + "'");
			}
			headers.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
		}
	}

	// A line up to LF, without its CR LF, as ISO-8859-1 (what HTTP heads are read as).
	private static String readLine(InputStream in, boolean first) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != '\n') {
			if (b < 0) {
				if (first && line.size() == 0) {
					throw new EOFException("The server closed the connection without answering");
				}
				throw new EOFException("The server closed the connection in the middle of its answer");
			}
			if (line.size() == MAX_LINE) {
				throw new ProtocolException("A line of the answer is longer than " + MAX_LINE + " bytes");
			}
			line.write(b);
		}
		String text = line.toString(StandardCharsets.ISO_8859_1);
		return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
	}

	private static String shorten(String line) {
		return (line.length() > 100) ? line.substring(0, 100) + "..." : line;
	}

}
