package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a rate-limited topic's start log while a scenario runs: the limiter's own record
 * of each delivery it admitted, on the Redis clock. A handler starts some time after its
 * admission (the claim's reply, the hand-off to a worker), so the admissions show what
 * the limiter decided and the handler starts what a partner would see.
 * <p>
 * The log keeps each entry for at least one period, then drops it; reading it every
 * fraction of a period sees every entry. An entry's score is its admission time in whole
 * milliseconds, the resolution the limiter decides on.
 */
final class StartLogReader implements AutoCloseable {

	private final RespConnection connection;

	private final String key;

	private final Duration every;

	private final Map<String, Long> admissions = new HashMap<>();

	private final Thread reader;

	private volatile boolean stopped;

	/**
	 * Start reading a topic's start log.
	 * @param redis the Redis the topic lives in
	 * @param topic the topic
	 * @param period the limit's period, which an entry lasts
	 */
	StartLogReader(BenchmarkRedis redis, String topic, Duration period) {
		this.connection = redis.connect();
		this.key = "{dq:" + topic + "}:starts";
		this.every = period.dividedBy(5);
		this.reader = new Thread(this::readUntilStopped, "start-log-reader");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Stop reading, after one last read that takes in the admissions so far.
	 * @return every admission seen, in microseconds on the Redis clock (whole
	 * milliseconds)
	 */
	long[] admissionMicros() {
		close();
		synchronized (this.admissions) {
			return this.admissions.values().stream().mapToLong(Long::longValue).toArray();
		}
	}

	@Override
	public void close() {
		if (!this.stopped) {
			this.stopped = true;
			try {
				this.reader.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
			finally {
				this.connection.close();
			}
		}
	}

	private void readUntilStopped() {
		boolean last = false;
		while (!last) {
			last = this.stopped;
			List<?> entries = (List<?>) this.connection.call("ZRANGE", this.key, "0", "-1", "WITHSCORES");
			synchronized (this.admissions) {
				for (int i = 0; i < entries.size(); i += 2) {
					long millis = (long) Double.parseDouble((String) entries.get(i + 1));
					this.admissions.putIfAbsent((String) entries.get(i), millis * 1000);
				}
			}
			if (!last) {
				pause(this.every);
			}
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
