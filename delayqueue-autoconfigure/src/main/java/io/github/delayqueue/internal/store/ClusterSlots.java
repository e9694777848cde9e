package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;

/**
 * Computes the Redis Cluster hash slot of a key the way Redis does (CRC16-XMODEM of the
 * hash tag, modulo 16384), so that the partitions of a topic can be given hash tags that
 * spread over the slot space.
 *
 * @author delayqueue contributors
 */
final class ClusterSlots {

	/**
	 * The number of hash slots of a Redis Cluster.
	 */
	static final int SLOTS = 16384;

	private static final int[] TABLE = new int[256];

	static {
		for (int i = 0; i < 256; i++) {
			int crc = i << 8;
			for (int bit = 0; bit < 8; bit++) {
				crc = ((crc & 0x8000) != 0) ? (crc << 1) ^ 0x1021 : crc << 1;
			}
			TABLE[i] = crc & 0xFFFF;
		}
	}

	private ClusterSlots() {
	}

	/**
	 * Return the slot of a hash tag's content, that is of every key tagged
	 * {@code {content}}.
	 * @param tag the content between the braces
	 * @return the slot, 0 to 16383
	 */
	static int slotOfTag(String tag) {
		int crc = 0;
		for (byte b : tag.getBytes(StandardCharsets.UTF_8)) {
			crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ b) & 0xFF]) & 0xFFFF;
		}
		return crc % SLOTS;
	}

}
