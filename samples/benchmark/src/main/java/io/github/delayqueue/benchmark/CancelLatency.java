package io.github.delayqueue.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayQueueScript;
import org.HdrHistogram.Histogram;

/**
 * Scenario 8: how long a {@code cancel} takes as the ready list grows, for a job that is
 * already done and for a READY job, with this version's script and, as the baseline in
 * the same run, the previous one, which searched the ready list with {@code LREM}. Both
 * are called by SHA from a plain socket, in turns, so that the figures differ only by the
 * script.
 */
final class CancelLatency {

	private static final String TOPIC = "bench.cancel";

	private static final String BASE = "{dq:" + TOPIC + "}:";

	/**
	 * The cancel script before ghosts: when the job was not DELAYED it searched the ready
	 * list, then the claiming list, with {@code LREM}, also for a job that was long done.
	 */
	static final String LREM_CANCEL = """
			local id = ARGV[1]
			local removed = redis.call('ZREM', KEYS[1], id)
			if removed == 0 then
			  removed = redis.call('LREM', KEYS[2], 1, id)
			end
			if removed == 0 then
			  removed = redis.call('LREM', KEYS[3], 1, id)
			end
			if removed == 0 then
			  return 0
			end
			redis.call('HDEL', KEYS[4], id)
			redis.call('HDEL', KEYS[5], id)
			redis.call('HDEL', KEYS[6], id)
			return 1
			""";

	// Fills the ready list from its consuming end: filler ids, and every step-th one a
	// READY job with a record, so that the jobs to cancel lie evenly along the list.
	private static final String FILL = """
			local from, to, step = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
			local ids, records = {}, {}
			for i = from, to do
			  if i % step == 0 then
			    local id = 'ready-' .. (i / step)
			    ids[#ids + 1] = id
			    records[#records + 1] = id
			    records[#records + 1] = 'mhz0a1b2|mhz0a1b2||||"x"'
			  else
			    ids[#ids + 1] = 'filler-' .. i
			  end
			  if #ids == 1000 then
			    redis.call('RPUSH', KEYS[1], unpack(ids))
			    ids = {}
			  end
			  if #records == 1000 then
			    redis.call('HSET', KEYS[2], unpack(records))
			    records = {}
			  end
			end
			if #ids > 0 then redis.call('RPUSH', KEYS[1], unpack(ids)) end
			if #records > 0 then redis.call('HSET', KEYS[2], unpack(records)) end
			return to - from + 1
			""";

	private final BenchmarkRedis redis;

	CancelLatency(BenchmarkRedis redis) {
		this.redis = redis;
	}

	/**
	 * Measure cancels with a ready list of a given length.
	 * @param ready ids in the ready list
	 * @param samples cancels measured per case and script
	 * @return the latencies in microseconds: done job with this version's script and the
	 * previous one, then READY job likewise
	 */
	Result measure(int ready, int samples) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			String current = (String) connection.call("SCRIPT", "LOAD",
					DelayQueueScript.CANCEL.script().getScriptAsString());
			String previous = (String) connection.call("SCRIPT", "LOAD", LREM_CANCEL);
			// Two READY jobs per sample: one for each script.
			int targets = Math.min(ready, 2 * samples);
			int step = Math.max(1, ready / targets);
			for (int from = 1; from <= ready; from += 100_000) {
				connection.call("EVAL", FILL, "2", BASE + "ready", BASE + "jobs", String.valueOf(from),
						String.valueOf(Math.min(ready, from + 99_999)), String.valueOf(step));
			}
			int pairs = targets / 2;
			Histogram doneNow = histogram();
			Histogram donePrevious = histogram();
			Histogram readyNow = histogram();
			Histogram readyPrevious = histogram();
			// Warm-up: the first calls pay for the script cache and the JIT.
			for (int i = 0; i < 20; i++) {
				cancelNow(connection, current, "warm-" + i);
			}
			for (int i = 0; i < samples; i++) {
				boolean nowFirst = i % 2 == 0;
				String done = "done-" + i;
				time(connection, nowFirst, done, current, previous, doneNow, donePrevious);
			}
			for (int i = 0; i < pairs; i++) {
				boolean nowFirst = i % 2 == 0;
				// Neighbouring READY jobs: each script cancels one at the same depth.
				timeReady(connection, nowFirst, "ready-" + (2 * i + 1), "ready-" + (2 * i + 2), current, previous,
						readyNow, readyPrevious);
			}
			return new Result(doneNow, donePrevious, readyNow, readyPrevious);
		}
	}

	private static void time(RespConnection connection, boolean nowFirst, String id, String current, String previous,
			Histogram now, Histogram before) {
		if (nowFirst) {
			now.recordValue(timed(() -> cancelNow(connection, current, id)));
			before.recordValue(timed(() -> cancelPrevious(connection, previous, id)));
		}
		else {
			before.recordValue(timed(() -> cancelPrevious(connection, previous, id)));
			now.recordValue(timed(() -> cancelNow(connection, current, id)));
		}
	}

	private static void timeReady(RespConnection connection, boolean nowFirst, String forNow, String forPrevious,
			String current, String previous, Histogram now, Histogram before) {
		if (nowFirst) {
			now.recordValue(timed(() -> expect(cancelNow(connection, current, forNow), forNow)));
			before.recordValue(timed(() -> expect(cancelPrevious(connection, previous, forPrevious), forPrevious)));
		}
		else {
			before.recordValue(timed(() -> expect(cancelPrevious(connection, previous, forPrevious), forPrevious)));
			now.recordValue(timed(() -> expect(cancelNow(connection, current, forNow), forNow)));
		}
	}

	private static void expect(Object cancelled, String id) {
		if (!Long.valueOf(1).equals(cancelled)) {
			throw new IllegalStateException("READY job " + id + " was not cancelled: " + cancelled);
		}
	}

	private static Object cancelNow(RespConnection connection, String sha, String id) {
		return connection.call("EVALSHA", sha, "7", BASE + "jobs", BASE + "delayed", BASE + "running", BASE + "dead",
				BASE + "attempts", BASE + "errors", BASE + "ghosts", id);
	}

	private static Object cancelPrevious(RespConnection connection, String sha, String id) {
		return connection.call("EVALSHA", sha, "6", BASE + "delayed", BASE + "ready", BASE + "claiming", BASE + "jobs",
				BASE + "attempts", BASE + "errors", id);
	}

	private static long timed(Runnable call) {
		long start = System.nanoTime();
		call.run();
		return Math.max(1, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
	}

	private static Histogram histogram() {
		return new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
	}

	/**
	 * Report the figures as rows: p50 and p99 of each case, this version's script and the
	 * previous one side by side in the delayqueue column.
	 * @param ready the length of the ready list
	 * @param result the latencies
	 * @return the rows
	 */
	static List<Report.Row> rows(int ready, Result result) {
		List<Report.Row> rows = new ArrayList<>();
		String size = String.format(java.util.Locale.ROOT, "%,d", ready);
		add(rows, "8a. cancel of a done job, " + size + " ready, this version (no list search)", result.doneNow());
		add(rows, "8b. cancel of a done job, " + size + " ready, previous LREM script", result.donePrevious());
		add(rows, "8c. cancel of a READY job, " + size + " ready, this version (ghost)", result.readyNow());
		add(rows, "8d. cancel of a READY job, " + size + " ready, previous LREM script", result.readyPrevious());
		return rows;
	}

	private static void add(List<Report.Row> rows, String scenario, Histogram latency) {
		rows.add(new Report.Row(scenario + ": p50", "µs", (double) latency.getValueAtPercentile(50), null, null));
		rows.add(new Report.Row(scenario + ": p99", "µs", (double) latency.getValueAtPercentile(99), null, null));
	}

	/**
	 * Latencies of one ready-list length, in microseconds.
	 *
	 * @param doneNow cancel of a done job, this version
	 * @param donePrevious cancel of a done job, previous script
	 * @param readyNow cancel of a READY job, this version
	 * @param readyPrevious cancel of a READY job, previous script
	 */
	record Result(Histogram doneNow, Histogram donePrevious, Histogram readyNow, Histogram readyPrevious) {

	}

}
