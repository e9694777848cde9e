package io.github.delayqueue.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * The measurements, each run the same way on both queues against the same Redis, which is
 * flushed before each of them.
 */
final class Scenarios {

	private static final long FAR_AWAY = Duration.ofDays(1).toMillis();

	private static final Duration DRAIN_LIMIT = Duration.ofMinutes(10);

	private static final Duration STALL_LIMIT = Duration.ofMinutes(1);

	private static final Duration MOVE_WINDOW = Duration.ofSeconds(30);

	private static final long JUST_IN_TIME_SPACING_MS = 50;

	private static final long JUST_IN_TIME_LEAD_MS = 30;

	private static final int BURST_WARM_UP_JOBS = 20_000;

	private static final long COUNTERS_LEAD_MILLIS = 100;

	private final BenchmarkRedis redis;

	private final BenchmarkOptions options;

	private final Report report;

	// Batch enqueue rates seen, used to leave enough time to enqueue jobs due together.
	private final Map<String, Double> batchRates = new HashMap<>();

	Scenarios(BenchmarkRedis redis, BenchmarkOptions options, Report report) {
		this.redis = redis;
		this.options = options;
		this.report = report;
	}

	/**
	 * Scenario 1: single-thread {@code send} against {@code offer}, and batches.
	 */
	void enqueue(QueueClient ours, QueueClient redisson, RawRedisLimits raw) {
		int jobs = this.options.enqueueJobs();
		String payload = Payloads.of(0);
		this.redis.flushAll();
		// Warm up the connections, the scripts and the JIT before the clock runs.
		int warmUpSends = Math.min(jobs, 2000);
		JitWarmUp.Result warmUp = JitWarmUp.run(this.options.warmUpRounds(), () -> {
			for (QueueClient client : List.of(ours, redisson)) {
				for (int i = 0; i < warmUpSends; i++) {
					client.send("bench.enqueue", payload, FAR_AWAY);
				}
			}
		});
		this.report.note("1a: " + warmUp.describe(warmUpSends + " sends by each client"));
		// The two clients take turns in rounds, so that a change in the machine's load
		// during the run weighs on both alike.
		double[] single = interleaved(ours, redisson, jobs, (client, count) -> {
			for (int i = 0; i < count; i++) {
				client.send("bench.enqueue", payload, FAR_AWAY);
			}
		});
		this.report.add(new Report.Row("1a. enqueue, one thread, one call per job (send / offer)", "jobs/s", single[0],
				single[1], raw.syncEnqueue(jobs)));
		this.redis.flushAll();
		for (QueueClient client : List.of(ours, redisson)) {
			client.sendMany("bench.enqueue", payloads(Math.min(this.options.batchJobs(), 5000), 0),
					System.currentTimeMillis() + FAR_AWAY);
		}
		double[] batched = interleaved(ours, redisson, this.options.batchJobs(), (client, count) -> client
			.sendMany("bench.enqueue", payloads(count, 0), System.currentTimeMillis() + FAR_AWAY));
		this.batchRates.put(ours.name(), batched[0]);
		this.batchRates.put(redisson.name(), batched[1]);
		this.report.add(new Report.Row("1b. enqueue, one thread, batched (sendAll / async offers)", "jobs/s",
				batched[0], batched[1], raw.batchEnqueue(this.options.batchJobs())));
	}

	private static double[] interleaved(QueueClient ours, QueueClient redisson, int jobs, Enqueue enqueue) {
		int rounds = 10;
		int perRound = Math.max(1, jobs / rounds);
		long[] nanos = new long[2];
		for (int round = 0; round < rounds; round++) {
			QueueClient[] order = (round % 2 == 0) ? new QueueClient[] { ours, redisson }
					: new QueueClient[] { redisson, ours };
			for (QueueClient client : order) {
				long start = System.nanoTime();
				enqueue.enqueue(client, perRound);
				nanos[(client == ours) ? 0 : 1] += System.nanoTime() - start;
			}
		}
		return new double[] { perRound * rounds / (nanos[0] / 1e9), perRound * rounds / (nanos[1] / 1e9) };
	}

	private interface Enqueue {

		void enqueue(QueueClient client, int count);

	}

	/**
	 * Scenario 2: a burst of jobs due at one instant, drained by the consumers.
	 */
	void burst(QueueClient ours, QueueClient redisson, RawRedisLimits raw) {
		double[] oursResult = burst(ours, this.options.profile());
		Double[] redissonResult = new Double[6];
		try {
			double[] measured = burst(redisson, false);
			for (int i = 0; i < measured.length; i++) {
				redissonResult[i] = measured[i];
			}
		}
		catch (DrainStalledException ex) {
			// Redisson's delayed queue stops moving jobs now and then; our figures stand.
			this.report.note("2, " + redisson.name() + ": no figures, " + ex.getMessage());
		}
		this.report.add(new Report.Row(
				"2a. burst of " + this.options.burstJobs() + " due at once, " + this.options.consumers()
						+ " consumers: due time to last ack",
				"jobs/s", oursResult[0], redissonResult[0], raw.drain(this.options.burstJobs())));
		this.report
			.add(new Report.Row("2b. burst: lateness of the last job", "ms", oursResult[1], redissonResult[1], null));
		this.report
			.add(new Report.Row("2c. burst: JVM process CPU per job", "µs", oursResult[2], redissonResult[2], null));
		this.report.add(new Report.Row("2d. burst: Redis CPU per job", "µs", oursResult[3], redissonResult[3], null));
		if (oursResult[4] >= 0 && (redissonResult[4] == null || redissonResult[4] >= 0)) {
			this.report.add(new Report.Row("2e. burst: JVM CPU per job, the JIT compiler's threads left out", "µs",
					oursResult[4], redissonResult[4], null));
		}
		this.report.add(new Report.Row("2f. burst: Redis commands per job, those run inside scripts included", "",
				oursResult[5], redissonResult[5], null));
	}

	/**
	 * A drain in which no job was acknowledged for {@link #STALL_LIMIT}.
	 */
	static final class DrainStalledException extends IllegalStateException {

		DrainStalledException(String message) {
			super(message);
		}

	}

	private double[] burst(QueueClient client, boolean profile) {
		String topic = OurQueueClient.BURST;
		int jobs = this.options.burstJobs();
		DrainProfiler profiler = profile ? DrainProfiler.start(this.options.output(), "profile-burst", jobs) : null;
		JitWarmUp.Result warmUp = warmUpUntilJitSettles(client, topic, Math.min(jobs, BURST_WARM_UP_JOBS));
		this.redis.flushAll();
		CountDownLatch acked = new CountDownLatch(jobs);
		AtomicLong lastStart = new AtomicLong();
		AtomicLong lastAck = new AtomicLong();
		long due = enqueueDueTogether(client, topic, jobs);
		client.startConsumers(topic, this.options.consumers(), new QueueClient.JobSink() {

			@Override
			public void started(String payload) {
				lastStart.accumulateAndGet(System.currentTimeMillis(), Math::max);
			}

			@Override
			public void acknowledged() {
				lastAck.accumulateAndGet(System.currentTimeMillis(), Math::max);
				acked.countDown();
			}

		});
		// The counters start shortly before the jobs fall due, so that they measure
		// the drain: not the enqueueing, nor the JIT compiling the send path meanwhile.
		pause(Duration.ofMillis(Math.max(0, due - COUNTERS_LEAD_MILLIS - System.currentTimeMillis())));
		if (profiler != null) {
			profiler.burstStarts();
		}
		double redisCpuBefore = redisCpuSeconds();
		long commandsBefore = redisCommands();
		long jvmCpuBefore = processCpuNanos();
		long jitMillisBefore = JitWarmUp.jitMillis();
		Map<String, long[]> threadTicksBefore = ThreadTicks.read();
		double redisCpu;
		long commands;
		long jvmCpu;
		double jvmCpuWithoutJit;
		long jitMillisDuringBurst;
		try {
			await(acked, client.name() + " burst drain");
			jvmCpu = processCpuNanos() - jvmCpuBefore;
			jitMillisDuringBurst = JitWarmUp.jitMillis() - jitMillisBefore;
			redisCpu = redisCpuSeconds() - redisCpuBefore;
			commands = redisCommands() - commandsBefore;
			// Read before the consumers stop: their threads' times end with them.
			jvmCpuWithoutJit = ThreadTicks.microsPerJobWithoutJit(threadTicksBefore, ThreadTicks.read(), jobs);
			if (profiler != null) {
				profiler.close();
			}
		}
		finally {
			client.stopConsumers();
			if (profiler != null) {
				profiler.close();
				this.report.note(client.name() + "'s burst ran under the Flight Recorder (its rate and CPU include"
						+ " the recording's cost); profile: " + profiler.summaryFile());
			}
		}
		this.report.note("2, " + client.name() + ": "
				+ warmUp.describe("a burst of " + Math.min(jobs, BURST_WARM_UP_JOBS) + " jobs")
				+ "; during the measured burst: " + jitMillisDuringBurst + " ms");
		return new double[] { jobs / ((lastAck.get() - due) / 1000.0), lastStart.get() - due, jvmCpu / 1000.0 / jobs,
				redisCpu * 1e6 / jobs, jvmCpuWithoutJit, commands / (double) jobs };
	}

	// A first warm-up with jobs due as they are sent, consumers running meanwhile; then
	// bursts shaped like the measured one (due together, consumers started once they are
	// enqueued) until the JIT has settled.
	private JitWarmUp.Result warmUpUntilJitSettles(QueueClient client, String topic, int jobs) {
		warmUpConsumers(client, topic, jobs);
		return JitWarmUp.run(this.options.warmUpRounds(), () -> {
			this.redis.flushAll();
			drainBurst(client, topic, jobs);
		});
	}

	private void drainBurst(QueueClient client, String topic, int jobs) {
		CountDownLatch acked = new CountDownLatch(jobs);
		enqueueDueTogether(client, topic, jobs);
		client.startConsumers(topic, this.options.consumers(), countingAcks(acked));
		try {
			await(acked, client.name() + " warm-up burst");
		}
		finally {
			client.stopConsumers();
		}
	}

	private static QueueClient.JobSink countingAcks(CountDownLatch acked) {
		return new QueueClient.JobSink() {

			@Override
			public void started(String payload) {
			}

			@Override
			public void acknowledged() {
				acked.countDown();
			}

		};
	}

	// The first warm-up: jobs due as they are sent, consumers running meanwhile.
	private void warmUpConsumers(QueueClient client, String topic, int jobs) {
		this.redis.flushAll();
		CountDownLatch acked = new CountDownLatch(jobs);
		client.startConsumers(topic, this.options.consumers(), countingAcks(acked));
		try {
			client.sendMany(topic, payloads(jobs, 0), System.currentTimeMillis());
			await(acked, client.name() + " warm-up");
		}
		finally {
			client.stopConsumers();
		}
	}

	/**
	 * Scenario 3: light load, jobs spread evenly over a window, then jobs sent just in
	 * time, one by one; lateness percentiles.
	 */
	void lightLoad(QueueClient ours, QueueClient redisson) {
		Histogram oursLateness = lightLoad(ours);
		Histogram redissonLateness = unlessStalled("3a-3c", redisson, () -> lightLoad(redisson));
		this.report.add(new Report.Row(
				"3a. light load (" + this.options.lightJobs() + " jobs over " + this.options.lightWindowMillis()
						+ " ms): lateness p50",
				"ms", millis(oursLateness.getValueAtPercentile(50)), percentile(redissonLateness, 50), null));
		this.report.add(new Report.Row("3b. light load: lateness p99", "ms",
				millis(oursLateness.getValueAtPercentile(99)), percentile(redissonLateness, 99), null));
		this.report.add(new Report.Row("3c. light load: lateness max", "ms", millis(oursLateness.getMaxValue()),
				percentile(redissonLateness, 100), null));
		int jobs = Math.max(10, this.options.lightJobs() / 10);
		Histogram oursJustInTime = justInTime(ours, jobs);
		Histogram redissonJustInTime = unlessStalled("3d-3e", redisson, () -> justInTime(redisson, jobs));
		this.report.add(new Report.Row(
				"3d. just in time (" + jobs + " jobs " + JUST_IN_TIME_SPACING_MS + " ms apart, each sent "
						+ JUST_IN_TIME_LEAD_MS + " ms before due): lateness p50",
				"ms", millis(oursJustInTime.getValueAtPercentile(50)), percentile(redissonJustInTime, 50), null));
		this.report.add(new Report.Row("3e. just in time: lateness p99", "ms",
				millis(oursJustInTime.getValueAtPercentile(99)), percentile(redissonJustInTime, 99), null));
	}

	// Redisson's delayed queue stops moving jobs now and then: that run of it has no
	// figures, and ours stand.
	private @Nullable Histogram unlessStalled(String rows, QueueClient redisson, Supplier<Histogram> run) {
		try {
			return run.get();
		}
		catch (DrainStalledException ex) {
			this.report.note(rows + ", " + redisson.name() + ": no figures, " + ex.getMessage());
			return null;
		}
	}

	private static @Nullable Double percentile(@Nullable Histogram lateness, double percentile) {
		return (lateness != null) ? millis(lateness.getValueAtPercentile(percentile)) : null;
	}

	// Jobs sent shortly before they are due, one at a time: each is the earliest the
	// queue knows, so its timer must be set anew by the send, not by a sweep.
	private Histogram justInTime(QueueClient client, int jobs) {
		this.redis.flushAll();
		return lateness(client, jobs, () -> {
			long first = System.currentTimeMillis() + 100;
			for (int i = 0; i < jobs; i++) {
				long due = first + (long) i * JUST_IN_TIME_SPACING_MS;
				long sendAt = due - JUST_IN_TIME_LEAD_MS;
				while (System.currentTimeMillis() < sendAt) {
					LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
				}
				client.sendAt(OurQueueClient.LIGHT, Payloads.of(due), due);
			}
		});
	}

	private Histogram lightLoad(QueueClient client) {
		this.redis.flushAll();
		// A first, shorter pass warms up the consumer path (class loading, JIT), whose
		// first second otherwise dominates the tail of either client.
		lightLoad(client, Math.min(this.options.lightJobs(), 1000), Math.min(this.options.lightWindowMillis(), 1000));
		return lightLoad(client, this.options.lightJobs(), this.options.lightWindowMillis());
	}

	private Histogram lightLoad(QueueClient client, int jobs, long windowMillis) {
		return lateness(client, jobs, () -> {
			// Sending the whole load takes well under the second of head start.
			long first = System.currentTimeMillis() + 1000;
			for (int i = 0; i < jobs; i++) {
				long due = first + i * windowMillis / jobs;
				client.sendAt(OurQueueClient.LIGHT, Payloads.of(due), due);
			}
		});
	}

	// Start consumers, send the jobs, and record how late each started.
	private Histogram lateness(QueueClient client, int jobs, Runnable sending) {
		String topic = OurQueueClient.LIGHT;
		Histogram lateness = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(10), 3);
		CountDownLatch acked = new CountDownLatch(jobs);
		client.startConsumers(topic, this.options.consumers(), new QueueClient.JobSink() {

			@Override
			public void started(String payload) {
				Instant now = Instant.now();
				long micros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
				lateness.recordValue(Math.max(0, micros - Payloads.dueAt(payload) * 1000));
			}

			@Override
			public void acknowledged() {
				acked.countDown();
			}

		});
		try {
			sending.run();
			await(acked, client.name() + " light load");
		}
		finally {
			client.stopConsumers();
		}
		return lateness;
	}

	/**
	 * Scenario 4: Redis memory per pending job with a 100-byte payload.
	 */
	void memory(QueueClient ours, QueueClient redisson, RawRedisLimits raw) {
		this.report.add(new Report.Row("4. Redis memory per pending job (100-byte payload)", "bytes", memory(ours),
				memory(redisson), raw.memoryFloor(this.options.memoryJobs())));
	}

	private double memory(QueueClient client) {
		this.redis.flushAll();
		try (RespConnection connection = this.redis.connect()) {
			long before = connection.infoLong("memory", "used_memory");
			client.sendMany("bench.memory", payloads(this.options.memoryJobs(), 0),
					System.currentTimeMillis() + FAR_AWAY);
			return (connection.infoLong("memory", "used_memory") - before) / (double) this.options.memoryJobs();
		}
	}

	/**
	 * Scenario 5: enqueue and move rates as the backlog of pending jobs grows.
	 */
	void growth(QueueClient ours, QueueClient redisson) {
		List<Integer> sizes = this.options.growthSizes();
		Map<QueueClient, Map<Integer, Double>> enqueueRates = enqueueRates(List.of(ours, redisson), sizes);
		for (int size : sizes) {
			// Alone in Redis: a queue that leaves due jobs behind when its window ends
			// keeps moving them, and would slow whatever is measured next.
			double oursMove = moveRate(ours, size);
			double redissonMove = moveRate(redisson, size);
			this.report.add(new Report.Row("5a. enqueue (send / offer) with " + size + " pending", "jobs/s",
					enqueueRates.get(ours).get(size), enqueueRates.get(redisson).get(size), null));
			this.report.add(new Report.Row("5b. move due jobs to ready with " + size + " pending", "jobs/s", oursMove,
					redissonMove, null));
		}
	}

	private void fillBacklog(QueueClient client, int size) {
		for (int from = 0; from < size; from += 100_000) {
			client.sendMany(growthTopic(size), payloads(Math.min(100_000, size - from), 0),
					System.currentTimeMillis() + FAR_AWAY);
		}
	}

	// Every backlog of both clients waits in a topic of its own, side by side, and the
	// probe sends take turns between all of them, so that rates at different backlogs
	// and of different clients are compared under the same load of the machine.
	private Map<QueueClient, Map<Integer, Double>> enqueueRates(List<QueueClient> clients, List<Integer> sizes) {
		this.redis.flushAll();
		for (QueueClient client : clients) {
			for (int size : sizes) {
				fillBacklog(client, size);
			}
		}
		String payload = Payloads.of(0);
		for (QueueClient client : clients) {
			for (int i = 0; i < 2000; i++) {
				client.send("bench.growth.warm-up", payload, FAR_AWAY);
			}
		}
		List<Map.Entry<QueueClient, Integer>> probes = new ArrayList<>();
		for (int size : sizes) {
			for (QueueClient client : clients) {
				probes.add(Map.entry(client, size));
			}
		}
		int rounds = 10;
		int perRound = Math.max(1, this.options.growthProbeJobs() / rounds);
		Map<Map.Entry<QueueClient, Integer>, Long> nanos = new HashMap<>();
		for (int round = 0; round < rounds; round++) {
			for (int i = 0; i < probes.size(); i++) {
				Map.Entry<QueueClient, Integer> probe = probes.get((i + round) % probes.size());
				long start = System.nanoTime();
				for (int j = 0; j < perRound; j++) {
					probe.getKey().send(growthTopic(probe.getValue()), payload, FAR_AWAY);
				}
				nanos.merge(probe, System.nanoTime() - start, Long::sum);
			}
		}
		Map<QueueClient, Map<Integer, Double>> rates = new HashMap<>();
		nanos.forEach((probe, spent) -> rates.computeIfAbsent(probe.getKey(), (client) -> new HashMap<>())
			.put(probe.getValue(), perRound * rounds / (spent / 1e9)));
		return rates;
	}

	private double moveRate(QueueClient client, int pending) {
		this.redis.flushAll();
		fillBacklog(client, pending);
		String topic = growthTopic(pending);
		int probe = this.options.growthProbeJobs();
		long due = enqueueDueTogether(client, topic, probe);
		long moved;
		long done;
		try (RespConnection connection = this.redis.connect()) {
			// A queue whose moves slow down as the backlog grows is measured over a
			// bounded window: the rate is what it moved in that time.
			long window = Math.max(5000, Math.min(MOVE_WINDOW.toMillis(), 2L * probe));
			long deadline = due + window;
			while ((moved = (Long) connection.call("LLEN", client.readyListKey(topic))) < probe
					&& System.currentTimeMillis() < deadline) {
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
			}
			done = System.currentTimeMillis();
		}
		if (moved < probe) {
			this.report.note(client.name() + " with " + pending + " pending moved " + moved + " of " + probe
					+ " due jobs in the " + (done - due) / 1000 + " s window; its rate is over that window");
		}
		return moved / (Math.max(1, done - due) / 1000.0);
	}

	private static String growthTopic(int pending) {
		return "bench.growth." + pending;
	}

	/**
	 * Scenario 6: Redis commands and JVM CPU while consumers of idle topics wait. Each
	 * client runs alone in the JVM while it is measured.
	 * @param client a client started just for this measurement
	 * @return commands per second and CPU in percent of one core
	 */
	double[] idle(QueueClient client, int topics) {
		this.redis.flushAll();
		for (int i = 0; i < topics; i++) {
			client.startConsumers(OurQueueClient.IDLE + i, 1, new QueueClient.JobSink() {

				@Override
				public void started(String payload) {
				}

				@Override
				public void acknowledged() {
				}

			});
		}
		try (RespConnection connection = this.redis.connect()) {
			// Let start-up work settle before measuring.
			pause(Duration.ofSeconds(Math.min(2, this.options.idleSeconds())));
			return idleCost(connection, Duration.ofSeconds(this.options.idleSeconds()));
		}
		finally {
			client.stopConsumers();
		}
	}

	/**
	 * Measure what a window of doing nothing costs.
	 * @param connection a connection to the Redis server
	 * @param window how long to measure
	 * @return the Redis commands per second, and the CPU of this JVM in % of a core
	 */
	static double[] idleCost(RespConnection connection, Duration window) {
		com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		long commandsBefore = connection.infoLong("stats", "total_commands_processed");
		long microsBefore = redisCpuMicros(connection);
		long cpuBefore = os.getProcessCpuTime();
		long start = System.nanoTime();
		pause(window);
		long cpuAfter = os.getProcessCpuTime();
		long microsAfter = redisCpuMicros(connection);
		long commandsAfter = connection.infoLong("stats", "total_commands_processed");
		long elapsed = System.nanoTime() - start;
		// The first INFO is counted in the second one's figure.
		return new double[] { (commandsAfter - commandsBefore - 1) / (elapsed / 1e9),
				100.0 * (cpuAfter - cpuBefore) / elapsed, (microsAfter - microsBefore) / (elapsed / 1e9) };
	}

	// The CPU time of the Redis server so far, in microseconds: its own timers included,
	// which the setups compared share.
	private static long redisCpuMicros(RespConnection connection) {
		return Math.round((Double.parseDouble(connection.info("cpu", "used_cpu_user"))
				+ Double.parseDouble(connection.info("cpu", "used_cpu_sys"))) * 1e6);
	}

	/**
	 * Enqueue jobs that all fall due at the same instant, which lies after the last of
	 * them is written.
	 * @return the due time
	 */
	private long enqueueDueTogether(QueueClient client, String topic, int jobs) {
		double rate = this.batchRates.getOrDefault(client.name(), 10_000.0);
		long margin = 1000 + (long) (3000.0 * jobs / rate);
		long due = System.currentTimeMillis() + margin;
		long start = System.nanoTime();
		client.sendMany(topic, payloads(jobs, due), due);
		this.batchRates.put(client.name(), jobs / ((System.nanoTime() - start) / 1e9));
		long late = System.currentTimeMillis() - due;
		if (late >= 0) {
			this.report.note(client.name() + ": enqueueing " + jobs + " jobs of " + topic + " ended " + late
					+ " ms after they fell due; that run's figures include the overlap");
		}
		return due;
	}

	// Commands run inside scripts count too: a figure that the machine's load does not
	// change.
	private long redisCommands() {
		try (RespConnection connection = this.redis.connect()) {
			return connection.infoLong("stats", "total_commands_processed");
		}
	}

	private double redisCpuSeconds() {
		try (RespConnection connection = this.redis.connect()) {
			return Double.parseDouble(connection.info("cpu", "used_cpu_user"))
					+ Double.parseDouble(connection.info("cpu", "used_cpu_sys"));
		}
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	private static List<String> payloads(int count, long due) {
		String payload = Payloads.of(due);
		List<String> payloads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			payloads.add(payload);
		}
		return payloads;
	}

	// Gives up when no job was acknowledged for a while, not only at the overall limit: a
	// queue that stopped moving jobs would otherwise hold the whole run for that limit.
	private static void await(CountDownLatch latch, String what) {
		long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
		long left = latch.getCount();
		long lastProgress = System.nanoTime();
		try {
			while (!latch.await(1, TimeUnit.SECONDS)) {
				long now = System.nanoTime();
				if (latch.getCount() < left) {
					left = latch.getCount();
					lastProgress = now;
				}
				else if (now - lastProgress > STALL_LIMIT.toNanos()) {
					throw new DrainStalledException(what + " stalled: no job acknowledged for " + STALL_LIMIT + "; "
							+ latch.getCount() + " jobs left");
				}
				if (now > deadline) {
					throw new IllegalStateException(
							what + " did not finish within " + DRAIN_LIMIT + "; " + latch.getCount() + " jobs left");
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(what + " was interrupted", ex);
		}
	}

	static void pause(Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		long left;
		while ((left = end - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

	private static double perSecond(long count, long startNanos) {
		return count / ((System.nanoTime() - startNanos) / 1e9);
	}

	private static double millis(long micros) {
		return micros / 1000.0;
	}

}
