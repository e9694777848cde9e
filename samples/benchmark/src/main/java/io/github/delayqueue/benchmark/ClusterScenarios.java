package io.github.delayqueue.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The cluster scenarios: our starter on one Redis and on a local Redis Cluster of three
 * masters (each with a replica), one after the other in one run, with the same
 * application. On one machine the cluster's masters share its cores with the application,
 * so these figures measure the cluster's overhead, not its scaling; the Redis CPU per job
 * on each master is what an estimate of a real cluster's capacity starts from
 * (docs/scaling.md).
 */
final class ClusterScenarios {

	private static final String BATCH_TOPIC = "bench.batch";

	private static final int TOPICS = 10;

	private final BenchmarkOptions options;

	private final Report report;

	// The Redis CPU per job of the latest drain.
	private CpuPerJob lastCpu = CpuPerJob.NONE;

	ClusterScenarios(BenchmarkOptions options, Report report) {
		this.options = options;
		this.report = report;
	}

	void run(BenchmarkRedis single, BenchmarkCluster cluster) {
		Target one = new Target("one Redis",
				Map.of("spring.data.redis.host", single.host(), "spring.data.redis.port",
						String.valueOf(single.port())),
				single::flushAll, () -> Map.of(single.port(), cpuSeconds(single)));
		Target many = new Target("cluster", Map.of("spring.data.redis.cluster.nodes", cluster.nodesProperty()),
				cluster::flushAll, cluster::cpuSecondsByMaster);
		Figures onOne = measure(one);
		Figures onCluster = measure(many);
		int batch = this.options.batchJobs();
		int burst = this.options.burstJobs();
		row("C1. sendAll, one topic, " + batch + " jobs", "jobs/s", onCluster.sendAllRate, onOne.sendAllRate);
		row("C2. sendAll: Redis CPU per job, all masters", "µs", onCluster.sendAllCpu.total(),
				onOne.sendAllCpu.total());
		row("C3. burst of " + burst + " in one topic, " + this.options.consumers() + " consumers", "jobs/s",
				onCluster.oneTopicRate, onOne.oneTopicRate);
		row("C4. burst in one topic: Redis CPU per job, all masters", "µs", onCluster.oneTopicCpu.total(),
				onOne.oneTopicCpu.total());
		row("C5. burst in one topic: Redis CPU per job, busiest master", "µs", onCluster.oneTopicCpu.busiest(),
				onOne.oneTopicCpu.busiest());
		row("C6. burst of " + burst + " over " + TOPICS + " topics, one consumer each", "jobs/s",
				onCluster.manyTopicsRate, onOne.manyTopicsRate);
		row("C7. burst over " + TOPICS + " topics: Redis CPU per job, all masters", "µs",
				onCluster.manyTopicsCpu.total(), onOne.manyTopicsCpu.total());
		row("C8. burst over " + TOPICS + " topics: Redis CPU per job, busiest master", "µs",
				onCluster.manyTopicsCpu.busiest(), onOne.manyTopicsCpu.busiest());
		this.report.note("Rows C1-C8 compare the cluster (first column) with one Redis (second); no Redisson "
				+ "runs here. A master's CPU includes feeding its replica, which one Redis has not. Per master on "
				+ "the cluster, burst in one topic: " + onCluster.oneTopicCpu + "; over " + TOPICS + " topics: "
				+ onCluster.manyTopicsCpu);
	}

	private void row(String scenario, String unit, double cluster, double one) {
		this.report.add(new Report.Row(scenario, unit, cluster, one, null));
	}

	private Figures measure(Target target) {
		System.out.println("  on " + target.name);
		target.flush.run();
		try (OurQueueClient client = new OurQueueClient(target.redisProperties, this.options.application())) {
			Figures figures = new Figures();
			// Warm up the sends, the consumers and the JIT before the clock runs.
			sendAll(client, BATCH_TOPIC, Math.min(this.options.batchJobs(), 20_000));
			drain(client, List.of(OurQueueClient.BURST), this.options.consumers(),
					Math.min(this.options.burstJobs(), 20_000), target);
			target.flush.run();
			Map<Integer, Double> before = target.cpu.get();
			long started = System.nanoTime();
			sendAll(client, BATCH_TOPIC, this.options.batchJobs());
			figures.sendAllRate = this.options.batchJobs() / ((System.nanoTime() - started) / 1e9);
			figures.sendAllCpu = CpuPerJob.between(before, target.cpu.get(), this.options.batchJobs());
			target.flush.run();
			double[] one = drain(client, List.of(OurQueueClient.BURST), this.options.consumers(),
					this.options.burstJobs(), target);
			figures.oneTopicRate = one[0];
			figures.oneTopicCpu = this.lastCpu;
			target.flush.run();
			List<String> topics = new ArrayList<>();
			for (int i = 0; i < TOPICS; i++) {
				topics.add(OurQueueClient.IDLE + i);
			}
			double[] many = drain(client, topics, 1, this.options.burstJobs(), target);
			figures.manyTopicsRate = many[0];
			figures.manyTopicsCpu = this.lastCpu;
			target.flush.run();
			return figures;
		}
	}

	private static void sendAll(QueueClient client, String topic, int jobs) {
		long farAway = System.currentTimeMillis() + TimeUnit.DAYS.toMillis(1);
		String payload = Payloads.of(farAway);
		for (int sent = 0; sent < jobs; sent += 10_000) {
			client.sendMany(topic, Collections.nCopies(Math.min(10_000, jobs - sent), payload), farAway);
		}
	}

	// Jobs due together, spread evenly over the topics, drained by their consumers;
	// returns jobs per second from the due time to the last acknowledgement.
	private double[] drain(QueueClient client, List<String> topics, int consumersPerTopic, int jobs, Target target) {
		int perTopic = jobs / topics.size();
		long due = System.currentTimeMillis() + 1000 + jobs / 20;
		String payload = Payloads.of(due);
		for (String topic : topics) {
			client.sendMany(topic, Collections.nCopies(perTopic, payload), due);
		}
		long late = System.currentTimeMillis() - due;
		if (late >= 0) {
			this.report.note("on " + target.name + ": enqueueing ended " + late + " ms after the jobs fell due");
		}
		CountDownLatch acked = new CountDownLatch(perTopic * topics.size());
		AtomicLong lastAck = new AtomicLong();
		QueueClient.JobSink sink = new QueueClient.JobSink() {

			@Override
			public void started(String payload) {
			}

			@Override
			public void acknowledged() {
				lastAck.accumulateAndGet(System.currentTimeMillis(), Math::max);
				acked.countDown();
			}

		};
		Map<Integer, Double> before = target.cpu.get();
		try {
			topics.forEach((topic) -> client.startConsumers(topic, consumersPerTopic, sink));
			if (!acked.await(10, TimeUnit.MINUTES)) {
				throw new IllegalStateException("The drain on " + target.name + " did not finish");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			client.stopConsumers();
		}
		this.lastCpu = CpuPerJob.between(before, target.cpu.get(), perTopic * topics.size());
		return new double[] { perTopic * topics.size() / (Math.max(1, lastAck.get() - due) / 1000.0) };
	}

	private static double cpuSeconds(BenchmarkRedis redis) {
		try (RespConnection connection = redis.connect()) {
			return Double.parseDouble(connection.info("cpu", "used_cpu_user"))
					+ Double.parseDouble(connection.info("cpu", "used_cpu_sys"));
		}
	}

	private record Target(String name, Map<String, String> redisProperties, Runnable flush,
			Supplier<Map<Integer, Double>> cpu) {

	}

	private static final class Figures {

		double sendAllRate;

		CpuPerJob sendAllCpu = CpuPerJob.NONE;

		double oneTopicRate;

		CpuPerJob oneTopicCpu = CpuPerJob.NONE;

		double manyTopicsRate;

		CpuPerJob manyTopicsCpu = CpuPerJob.NONE;

	}

	/**
	 * Redis CPU per job on each master (by port), in microseconds.
	 */
	private record CpuPerJob(Map<Integer, Double> byMaster) {

		static final CpuPerJob NONE = new CpuPerJob(Map.of());

		static CpuPerJob between(Map<Integer, Double> before, Map<Integer, Double> after, int jobs) {
			Map<Integer, Double> perJob = new TreeMap<>();
			after.forEach((port, seconds) -> perJob.put(port,
					(seconds - before.getOrDefault(port, seconds)) * 1e6 / Math.max(1, jobs)));
			return new CpuPerJob(perJob);
		}

		double total() {
			return this.byMaster.values().stream().mapToDouble(Double::doubleValue).sum();
		}

		double busiest() {
			return this.byMaster.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
		}

		@Override
		public String toString() {
			StringBuilder text = new StringBuilder();
			this.byMaster.forEach((port, micros) -> text.append(text.isEmpty() ? "" : ", ")
				.append(String.format(Locale.ROOT, "%.1f µs", micros)));
			return text.toString();
		}

	}

}
