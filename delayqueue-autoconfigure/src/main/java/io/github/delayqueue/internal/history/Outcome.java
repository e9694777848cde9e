package io.github.delayqueue.internal.history;

import java.util.Locale;

/**
 * What the throughput history counts.
 *
 * @author delayqueue contributors
 */
enum Outcome {

	/**
	 * A handler returned and the job was acknowledged.
	 */
	COMPLETED,

	/**
	 * A handler threw; each failed delivery counts once.
	 */
	FAILED,

	/**
	 * A failed job was scheduled for another attempt.
	 */
	RETRIED,

	/**
	 * A job became dead.
	 */
	DEAD;

	/**
	 * Return the name used in Redis and in JSON.
	 * @return the lower-case name
	 */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

}
