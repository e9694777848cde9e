package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 requests written byte for byte over a socket, so that a path reaches the
 * server exactly as spelled and a test may set any header, {@code Host} included, which
 * HTTP clients normalize or refuse.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Send one request and return the whole answer, status line first.
	 * @param port the server's port on localhost
	 * @param method the method, as written
	 * @param path the path, as written
	 * @param headers header lines separated by CRLF, or {@code null}; without a
	 * {@code Host} line, {@code Host: localhost:<port>} is sent
	 * @return the answer
	 * @throws IOException if the exchange fails
	 */
	public static String exchange(int port, String method, String path, String headers) throws IOException {
		return exchange(port, method, path, headers, "");
	}

	/**
	 * Send one request with a body and return the whole answer, status line first.
	 * @param port the server's port on localhost
	 * @param method the method, as written
	 * @param path the path, as written
	 * @param headers header lines separated by CRLF, or {@code null}; without a
	 * {@code Host} line, {@code Host: localhost:<port>} is sent
	 * @param body the body, ISO-8859-1
	 * @return the answer
	 * @throws IOException if the exchange fails
	 */
	public static String exchange(int port, String method, String path, String headers, String body)
			throws IOException {
		String all = (headers != null) ? headers : "";
		if (!all.regionMatches(true, 0, "Host:", 0, 5) && !all.toLowerCase(Locale.ROOT).contains("\r\nhost:")) {
			all = "Host: localhost:" + port + (all.isEmpty() ? "" : "\r\n" + all);
		}
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write((method + " " + path + " HTTP/1.1\r\n" + all + "\r\nContent-Length: " + body.length()
					+ "\r\nConnection: close\r\n\r\n" + body)
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
		}
	}

	/**
	 * Return the status of an answer.
	 * @param answer the answer
	 * @return its status, or 0 when it has none
	 */
	public static int status(String answer) {
		String[] statusLine = answer.split("\r\n", 2)[0].split(" ");
		return (statusLine.length > 1) ? Integer.parseInt(statusLine[1]) : 0;
	}

}
