package io.github.delayqueue.benchmark;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * Reads a rate-limited topic's start counts while a scenario runs: the limiter's own
 * record of the deliveries it admitted, on the Redis clock. A handler starts some time
 * after its admission (the claim's reply, the hand-off to a worker), so the admissions
 * show what the limiter decided and the handler starts what a partner would see.
 * <p>
 * The counts are a list of one entry per millisecond (the bucket the limiter counts in
 * for a period of up to 10 s) that had an admission, each with a running total of
 * admissions: an entry's admissions are its total less the one before it, the first entry
 * only carrying the total of those gone. An entry stays for at least one period; reading
 * the list every fraction of a period sees every millisecond's final count.
 */
final class StartLogReader implements AutoCloseable {

	private final RespConnection connection;

	private final String key;

	private final Duration every;

	// Admissions per millisecond on the Redis clock.
	private final Map<Long, Long> admissions = new HashMap<>();

	private final Thread reader;

	private volatile boolean stopped;

	/**
	 * Start reading a topic's start counts.
	 * @param redis the Redis the topic lives in
	 * @param topic the topic
	 * @param period the limit's period, which an entry lasts at least
	 */
	StartLogReader(BenchmarkRedis redis, String topic, Duration period) {
		this.connection = redis.connect();
		this.key = "{dq:" + topic + "}:start-counts";
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
			return this.admissions.entrySet()
				.stream()
				.flatMapToLong((millis) -> LongStream.generate(() -> millis.getKey() * 1000).limit(millis.getValue()))
				.toArray();
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
			List<?> entries = (List<?>) this.connection.call("LRANGE", this.key, "0", "-1");
			synchronized (this.admissions) {
				long before = -1;
				for (Object entry : entries) {
					String[] bucket = ((String) entry).split(" ");
					long total = Long.parseLong(bucket[1]);
					if (before >= 0) {
						this.admissions.merge(Long.parseLong(bucket[0]), total - before, Math::max);
					}
					before = total;
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
