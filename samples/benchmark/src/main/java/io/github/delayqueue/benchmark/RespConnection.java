package io.github.delayqueue.benchmark;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain socket speaking RESP with no client library in between, so that the raw limits
 * measure Redis and the network only. Commands may be written many at a time and their
 * replies read afterwards (pipelining).
 */
final class RespConnection implements AutoCloseable {

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	RespConnection(String host, int port) {
		try {
			this.socket = new Socket(host, port);
			this.socket.setTcpNoDelay(true);
			this.out = new BufferedOutputStream(this.socket.getOutputStream(), 1 << 16);
			this.in = new BufferedInputStream(this.socket.getInputStream(), 1 << 16);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot connect to Redis at " + host + ":" + port, ex);
		}
	}

	/**
	 * Send one command and read its reply.
	 * @param args the command and its arguments
	 * @return the reply: {@link String}, {@link Long}, {@link List} or {@code null}
	 */
	Object call(String... args) {
		write(args);
		flush();
		return read();
	}

	void write(String... args) {
		try {
			this.out.write(('*' + String.valueOf(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			for (String arg : args) {
				byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
				this.out.write(('$' + String.valueOf(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
				this.out.write(bytes);
				this.out.write('\r');
				this.out.write('\n');
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Writing to Redis failed", ex);
		}
	}

	void flush() {
		try {
			this.out.flush();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Writing to Redis failed", ex);
		}
	}

	Object read() {
		try {
			int type = this.in.read();
			String line = line();
			switch (type) {
				case '+':
					return line;
				case '-':
					throw new IllegalStateException("Redis replied with an error: " + line);
				case ':':
					return Long.parseLong(line);
				case '$': {
					int length = Integer.parseInt(line);
					if (length < 0) {
						return null;
					}
					byte[] bytes = this.in.readNBytes(length + 2);
					return new String(bytes, 0, length, StandardCharsets.UTF_8);
				}
				case '*': {
					int count = Integer.parseInt(line);
					if (count < 0) {
						return null;
					}
					List<Object> items = new ArrayList<>(count);
					for (int i = 0; i < count; i++) {
						items.add(read());
					}
					return items;
				}
				default:
					throw new IllegalStateException("Unexpected reply type '" + (char) type + "' from Redis");
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Reading from Redis failed", ex);
		}
	}

	private String line() throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = this.in.read()) != '\r') {
			if (c < 0) {
				throw new IOException("Redis closed the connection");
			}
			line.append((char) c);
		}
		this.in.read();
		return line.toString();
	}

	/**
	 * Read one field of {@code INFO}.
	 * @param section the section, such as {@code memory}
	 * @param field the field, such as {@code used_memory}
	 * @return the value
	 */
	String info(String section, String field) {
		String info = (String) call("INFO", section);
		for (String line : info.split("\r\n")) {
			if (line.startsWith(field + ":")) {
				return line.substring(field.length() + 1).trim();
			}
		}
		throw new IllegalStateException("INFO " + section + " has no field " + field);
	}

	long infoLong(String section, String field) {
		return Long.parseLong(info(section, field));
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// Nothing left to do with a connection that failed to close.
		}
	}

}
