package io.github.delayqueue.benchmark;

import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueScript;

/**
 * What Redis itself can do on this machine, measured from a plain socket with no client
 * library: our own scripts called by SHA, and plain commands. Every client figure can be
 * read as a fraction of these.
 */
final class RawRedisLimits {

	private static final String TOPIC = "bench.raw";

	private static final String BASE = "{dq:" + TOPIC + "}:";

	private static final int PIPELINE = 1000;

	private final BenchmarkRedis redis;

	RawRedisLimits(BenchmarkRedis redis) {
		this.redis = redis;
	}

	/**
	 * One enqueue script call per round trip, one job each, on one thread.
	 * @param jobs how many
	 * @return jobs per second
	 */
	double syncEnqueue(int jobs) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			String sha = load(connection, DelayQueueScript.ENQUEUE);
			String tail = tail();
			long start = System.nanoTime();
			for (int i = 0; i < jobs; i++) {
				connection.call(enqueue(sha, new String[] { id(i), "d3600000", tail }));
			}
			return perSecond(jobs, start);
		}
	}

	/**
	 * Enqueue script calls of one job each, {@value #PIPELINE} in flight.
	 * @param jobs how many
	 * @return jobs per second
	 */
	double pipelinedEnqueue(int jobs) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			String sha = load(connection, DelayQueueScript.ENQUEUE);
			String tail = tail();
			long start = System.nanoTime();
			for (int from = 0; from < jobs; from += PIPELINE) {
				int to = Math.min(jobs, from + PIPELINE);
				for (int i = from; i < to; i++) {
					connection.write(enqueue(sha, new String[] { id(i), "d3600000", tail }));
				}
				connection.flush();
				for (int i = from; i < to; i++) {
					connection.read();
				}
			}
			return perSecond(jobs, start);
		}
	}

	/**
	 * Enqueue script calls of {@value #PIPELINE} jobs each, one per round trip: what
	 * {@code sendAll} asks of Redis.
	 * @param jobs how many
	 * @return jobs per second
	 */
	double batchEnqueue(int jobs) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			String sha = load(connection, DelayQueueScript.ENQUEUE);
			long start = System.nanoTime();
			enqueueBatches(connection, sha, jobs, "d3600000");
			return perSecond(jobs, start);
		}
	}

	/**
	 * Plain {@code ZADD}, {@value #PIPELINE} in flight: the ceiling of any sorted-set
	 * based delay queue.
	 * @param jobs how many
	 * @return commands per second
	 */
	double pipelinedZadd(int jobs) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			long start = System.nanoTime();
			for (int from = 0; from < jobs; from += PIPELINE) {
				int to = Math.min(jobs, from + PIPELINE);
				for (int i = from; i < to; i++) {
					connection.write("ZADD", "raw.zset", String.valueOf(start + i), id(i));
				}
				connection.flush();
				for (int i = from; i < to; i++) {
					connection.read();
				}
			}
			return perSecond(jobs, start);
		}
	}

	/**
	 * Drain due jobs with our scripts and nothing else: move them all to READY, then
	 * claim 100 at a time and acknowledge them in one call.
	 * @param jobs how many
	 * @return jobs per second
	 */
	double drain(int jobs) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			String enqueue = load(connection, DelayQueueScript.ENQUEUE);
			String sweep = load(connection, DelayQueueScript.SWEEP);
			String claim = load(connection, DelayQueueScript.CLAIM);
			String ack = load(connection, DelayQueueScript.ACK);
			long due = System.currentTimeMillis() + 60_000;
			enqueueBatches(connection, enqueue, jobs, "a" + due);
			// Pretend the jobs are due by moving the clock of the test, not of Redis:
			// rewrite their scores to the past, so that the drain starts at once.
			connection.call("ZUNIONSTORE", BASE + "delayed", "1", BASE + "delayed", "WEIGHTS", "0");
			long start = System.nanoTime();
			long moved;
			do {
				moved = (Long) ((List<?>) connection.call("EVALSHA", sweep, "8", BASE + "delayed", BASE + "ready",
						BASE + "running", BASE + "dead", BASE + "jobs", BASE + "attempts", BASE + "errors",
						BASE + "successors", "1000", "5"))
					.get(0);
			}
			while (moved > 0);
			int done = 0;
			while (done < jobs) {
				List<?> reply = (List<?>) connection.call("EVALSHA", claim, "7", BASE + "ready", BASE + "claiming",
						BASE + "running", BASE + "jobs", BASE + "attempts", BASE + "claim-receipt:raw", BASE + "ghosts",
						"", "100", "60000", String.valueOf(done));
				if (reply.size() <= 1) {
					throw new IllegalStateException("Raw drain found no ready job after " + done);
				}
				List<String> ackCall = new ArrayList<>(List.of("EVALSHA", ack, "10", BASE + "running", BASE + "jobs",
						BASE + "attempts", BASE + "errors", BASE + "delayed", BASE + "ready", BASE + "successors",
						BASE + "finished", BASE + "completed", BASE + "cancelled", "", TOPIC, "", ""));
				for (int i = 1; i + 2 < reply.size(); i += 3) {
					ackCall.add((String) reply.get(i));
					ackCall.add(String.valueOf(reply.get(i + 1)));
					ackCall.add("-1");
				}
				connection.call(ackCall.toArray(String[]::new));
				done += (reply.size() - 1) / 3;
			}
			return perSecond(jobs, start);
		}
	}

	/**
	 * The least memory a pending job can take in a hash-plus-sorted-set layout: its id in
	 * a sorted set and its 100-byte payload in a hash, nothing else.
	 * @param jobs how many
	 * @return bytes per job
	 */
	double memoryFloor(int jobs) {
		String payload = Payloads.of(System.currentTimeMillis());
		return bytesPerJob(jobs, (connection, i) -> {
			connection.write("ZADD", "raw.delayed", String.valueOf(1_700_000_000_000L + i), id(i));
			connection.write("HSET", "raw.jobs", id(i), payload);
			return 2;
		});
	}

	/**
	 * Memory of the record alone: a 100-byte value in a hash under a 16-character id,
	 * with no index of due times. Any layout that finds a job by its id in a hash table
	 * pays at least this.
	 * @param jobs how many
	 * @return bytes per job
	 */
	double memoryOfRecordByIdAlone(int jobs) {
		String record = record();
		return bytesPerJob(jobs, (connection, i) -> {
			connection.write("HSET", "raw.jobs", id(i), record);
			return 1;
		});
	}

	/**
	 * Memory of the due-time index alone: a 16-character id in a sorted set.
	 * @param jobs how many
	 * @return bytes per job
	 */
	double memoryOfDueIndexAlone(int jobs) {
		return bytesPerJob(jobs, (connection, i) -> {
			connection.write("ZADD", "raw.delayed", String.valueOf(1_700_000_000_000L + i), id(i));
			return 1;
		});
	}

	/**
	 * Memory of id and record packed one after another in a list, the most compact
	 * encoding Redis's default settings allow for a 100-byte value, and one in which no
	 * job can be found by its id or its due time.
	 * @param jobs how many
	 * @return bytes per job
	 */
	double memoryPackedInList(int jobs) {
		String record = record();
		return bytesPerJob(jobs, (connection, i) -> {
			connection.write("RPUSH", "raw.packed", id(i) + record);
			return 1;
		});
	}

	private double bytesPerJob(int jobs, JobWriter writer) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			long before = connection.infoLong("memory", "used_memory");
			for (int from = 0; from < jobs; from += PIPELINE) {
				int to = Math.min(jobs, from + PIPELINE);
				int replies = 0;
				for (int i = from; i < to; i++) {
					replies += writer.write(connection, i);
				}
				connection.flush();
				for (int i = 0; i < replies; i++) {
					connection.read();
				}
			}
			return (connection.infoLong("memory", "used_memory") - before) / (double) jobs;
		}
	}

	private void enqueueBatches(RespConnection connection, String sha, int jobs, String due) {
		String tail = tail();
		for (int from = 0; from < jobs; from += PIPELINE) {
			int to = Math.min(jobs, from + PIPELINE);
			String[] batch = new String[(to - from) * 3];
			for (int i = from; i < to; i++) {
				int at = (i - from) * 3;
				batch[at] = id(i);
				batch[at + 1] = due;
				batch[at + 2] = tail;
			}
			connection.call(enqueue(sha, batch));
		}
	}

	private static String[] enqueue(String sha, String[] jobs) {
		List<String> args = new ArrayList<>(jobs.length + 8);
		args.addAll(List.of("EVALSHA", sha, "9", BASE + "jobs", BASE + "delayed", BASE + "ready", BASE + "dead",
				BASE + "attempts", BASE + "errors", BASE + "running", BASE + "ghosts", BASE + "successors", "", TOPIC,
				""));
		args.addAll(List.of(jobs));
		return args.toArray(String[]::new);
	}

	private static String record() {
		// The record our enqueue script stores: created and due times in base 36, then
		// the tail.
		return "mhz0a1b2|mhz0a1b3|" + tail();
	}

	private static String tail() {
		// ttr | max attempts | group | headers | payload as JSON: the record our template
		// writes.
		return "||||\"" + Payloads.of(System.currentTimeMillis()) + "\"";
	}

	private static String id(int i) {
		return String.format("%016d", i);
	}

	private static String load(RespConnection connection, DelayQueueScript script) {
		// The exact text the library runs: the script with the Lua libraries it needs in
		// front.
		return (String) connection.call("SCRIPT", "LOAD", script.script().getScriptAsString());
	}

	/**
	 * Writes one job's commands, unflushed, and says how many replies they will bring.
	 */
	@FunctionalInterface
	private interface JobWriter {

		int write(RespConnection connection, int job);

	}

	private static double perSecond(long count, long startNanos) {
		return count / ((System.nanoTime() - startNanos) / 1e9);
	}

}
