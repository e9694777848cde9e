package io.github.delayqueue.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.internal.store.DelayQueueScript;
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
			    records[#records + 1] = 'mhz0a1b2|mhz0a1b2|||||"x"'
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
	 * @return the latencies in microseconds
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
			Result result = new Result(new Latency(), new Latency(), new Latency(), new Latency());
			// Warm-up: the first calls pay for the script cache and the JIT.
			for (int i = 0; i < 20; i++) {
				cancelNow(connection, current, "warm-" + i);
			}
			// The scripts take turns, each going first every other time, so that a change
			// in the machine's load weighs on both alike.
			for (int i = 0; i < samples; i++) {
				String done = "done-" + i;
				Runnable now = () -> result.doneNow().record(connection, () -> cancelNow(connection, current, done));
				Runnable before = () -> result.donePrevious()
					.record(connection, () -> cancelPrevious(connection, previous, done));
				inTurns(i, now, before);
			}
			for (int i = 0; i < targets / 2; i++) {
				// Neighbouring READY jobs: each script cancels one at the same depth.
				String forNow = "ready-" + (2 * i + 1);
				String forPrevious = "ready-" + (2 * i + 2);
				Runnable now = () -> result.readyNow()
					.record(connection, () -> expect(cancelNow(connection, current, forNow), forNow));
				Runnable before = () -> result.readyPrevious()
					.record(connection, () -> expect(cancelPrevious(connection, previous, forPrevious), forPrevious));
				inTurns(i, now, before);
			}
			return result;
		}
	}

	private static void inTurns(int i, Runnable now, Runnable before) {
		if (i % 2 == 0) {
			now.run();
			before.run();
		}
		else {
			before.run();
			now.run();
		}
	}

	private static void expect(Object cancelled, String id) {
		if (!Long.valueOf(1).equals(cancelled)) {
			throw new IllegalStateException("READY job " + id + " was not cancelled: " + cancelled);
		}
	}

	private static Object cancelNow(RespConnection connection, String sha, String id) {
		// Completed retention off: the empty retention argument, as the starter passes
		// it.
		return connection.call("EVALSHA", sha, "11", BASE + "jobs", BASE + "delayed", BASE + "running", BASE + "dead",
				BASE + "attempts", BASE + "errors", BASE + "ghosts", BASE + "successors", BASE + "finished",
				BASE + "cancelled", BASE + "completed", id, "");
	}

	private static Object cancelPrevious(RespConnection connection, String sha, String id) {
		return connection.call("EVALSHA", sha, "6", BASE + "delayed", BASE + "ready", BASE + "claiming", BASE + "jobs",
				BASE + "attempts", BASE + "errors", id);
	}

	/**
	 * Report the figures as rows: p50 and p99 of each case, as the client saw them and as
	 * Redis spent them, this version's script and the previous one side by side in the
	 * delayqueue column.
	 * @param ready the length of the ready list
	 * @param result the latencies
	 * @return the rows
	 */
	static List<Report.Row> rows(int ready, Result result) {
		List<Report.Row> rows = new ArrayList<>();
		String size = String.format(Locale.ROOT, "%,d", ready);
		add(rows, "8a. cancel of a done job, " + size + " ready, this version (no list search)", result.doneNow());
		add(rows, "8b. cancel of a done job, " + size + " ready, previous LREM script", result.donePrevious());
		add(rows, "8c. cancel of a READY job, " + size + " ready, this version (ghost)", result.readyNow());
		add(rows, "8d. cancel of a READY job, " + size + " ready, previous LREM script", result.readyPrevious());
		return rows;
	}

	private static void add(List<Report.Row> rows, String scenario, Latency latency) {
		rows.add(new Report.Row(scenario + ": round trip p50", "µs", (double) latency.client().getValueAtPercentile(50),
				null, null));
		rows.add(new Report.Row(scenario + ": round trip p99", "µs", (double) latency.client().getValueAtPercentile(99),
				null, null));
		rows.add(new Report.Row(scenario + ": Redis busy p50", "µs", (double) latency.redis().getValueAtPercentile(50),
				null, null));
		rows.add(new Report.Row(scenario + ": Redis busy p99", "µs", (double) latency.redis().getValueAtPercentile(99),
				null, null));
	}

	/**
	 * Latencies of one ready-list length.
	 *
	 * @param doneNow cancel of a done job, this version
	 * @param donePrevious cancel of a done job, previous script
	 * @param readyNow cancel of a READY job, this version
	 * @param readyPrevious cancel of a READY job, previous script
	 */
	record Result(Latency doneNow, Latency donePrevious, Latency readyNow, Latency readyPrevious) {

	}

	/**
	 * The latencies of one case, in microseconds: the round trip the client saw, and the
	 * time Redis spent in the script (from {@code INFO commandstats}, read around each
	 * call), which is how long every other client waited.
	 *
	 * @param client round trips
	 * @param redis time in Redis
	 */
	record Latency(Histogram client, Histogram redis) {

		private static final Pattern EVALSHA_MICROS = Pattern.compile("cmdstat_evalsha:calls=\\d+,usec=(\\d+)");

		Latency() {
			this(new Histogram(TimeUnit.SECONDS.toMicros(60), 3), new Histogram(TimeUnit.SECONDS.toMicros(60), 3));
		}

		void record(RespConnection connection, Runnable call) {
			long redisBefore = evalShaMicros(connection);
			long start = System.nanoTime();
			call.run();
			this.client.recordValue(Math.max(1, TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start)));
			this.redis.recordValue(Math.max(0, evalShaMicros(connection) - redisBefore));
		}

		private static long evalShaMicros(RespConnection connection) {
			Matcher micros = EVALSHA_MICROS.matcher((String) connection.call("INFO", "commandstats"));
			return micros.find() ? Long.parseLong(micros.group(1)) : 0;
		}

	}

}
