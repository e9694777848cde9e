package io.github.delayqueue.benchmark;

import java.util.Arrays;

/**
 * Builds the 100-byte payloads every scenario sends: the intended due time in epoch
 * milliseconds, a separator, and filler. Carrying the due time in the payload lets both
 * queues' handlers measure lateness the same way.
 */
final class Payloads {

	static final int SIZE = 100;

	private Payloads() {
	}

	static String of(long dueAtMillis) {
		String head = dueAtMillis + ":";
		char[] filler = new char[SIZE - head.length()];
		Arrays.fill(filler, 'x');
		return head + new String(filler);
	}

	static long dueAt(String payload) {
		return Long.parseLong(payload.substring(0, payload.indexOf(':')));
	}

}
