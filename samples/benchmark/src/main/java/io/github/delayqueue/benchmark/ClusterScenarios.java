package io.github.delayqueue.benchmark;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The cluster scenarios: our starter on one Redis and on a local Redis Cluster of three
 * masters (each with a replica), one after the other in one run, with the same
 * application: one topic, one topic of six partitions, and thirty topics. On one machine
 * the cluster's masters share its cores with the application, so these figures measure
 * the cluster's overhead, not its scaling; the Redis CPU per job on each master is what
 * an estimate of a real cluster's capacity starts from (docs/scaling.md).
 */
final class ClusterScenarios {

	private static final String BATCH_TOPIC = "bench.batch";

	private static final int PARTITIONS = 6;

	private final BenchmarkOptions options;

	private final Report report;

	ClusterScenarios(BenchmarkOptions options, Report report) {
		this.options = options;
		this.report = report;
	}

	void run(BenchmarkRedis single, BenchmarkCluster cluster) {
		String partitions = "delayqueue.topics." + OurQueueClient.PARTITIONED + ".partitions";
		Target one = new Target("one Redis",
				Map.of("spring.data.redis.host", single.host(), "spring.data.redis.port", String.valueOf(single.port()),
						partitions, String.valueOf(PARTITIONS)),
				single::flushAll, () -> Map.of(single.port(), cpuSeconds(single)));
		Target many = new Target("cluster", Map.of("spring.data.redis.cluster.nodes", cluster.nodesProperty(),
				partitions, String.valueOf(PARTITIONS)), cluster::flushAll, cluster::cpuSecondsByMaster);
		Figures onOne = measure(one);
		Figures onCluster = measure(many);
		int batch = this.options.batchJobs();
		int burst = this.options.burstJobs();
		int topics = OurQueueClient.MANY_TOPICS;
		row("C1. sendAll, one topic, " + batch + " jobs", "jobs/s", onCluster.sendAll.rate, onOne.sendAll.rate);
		row("C2. sendAll, one topic: Redis CPU per job, all masters", "µs", onCluster.sendAll.cpu.total(),
				onOne.sendAll.cpu.total());
		row("C3. sendAll, one topic of " + PARTITIONS + " partitions", "jobs/s", onCluster.sendAllPartitioned.rate,
				onOne.sendAllPartitioned.rate);
		row("C4. sendAll, " + PARTITIONS + " partitions: Redis CPU per job, all masters", "µs",
				onCluster.sendAllPartitioned.cpu.total(), onOne.sendAllPartitioned.cpu.total());
		row("C5. burst of " + burst + " in one topic, " + this.options.consumers() + " consumers", "jobs/s",
				onCluster.oneTopic.rate, onOne.oneTopic.rate);
		row("C6. burst in one topic: Redis CPU per job, busiest master", "µs", onCluster.oneTopic.cpu.busiest(),
				onOne.oneTopic.cpu.busiest());
		row("C7. burst of " + burst + " in one topic of " + PARTITIONS + " partitions, 8 consumers", "jobs/s",
				onCluster.partitioned.rate, onOne.partitioned.rate);
		row("C8. burst, " + PARTITIONS + " partitions: Redis CPU per job, all masters", "µs",
				onCluster.partitioned.cpu.total(), onOne.partitioned.cpu.total());
		row("C9. burst, " + PARTITIONS + " partitions: Redis CPU per job, busiest master", "µs",
				onCluster.partitioned.cpu.busiest(), onOne.partitioned.cpu.busiest());
		row("C10. burst of " + burst + " over " + topics + " topics, one listener, one worker per topic", "jobs/s",
				onCluster.manyTopics.rate, onOne.manyTopics.rate);
		row("C11. burst over " + topics + " topics: Redis CPU per job, all masters", "µs",
				onCluster.manyTopics.cpu.total(), onOne.manyTopics.cpu.total());
		row("C12. burst over " + topics + " topics: Redis CPU per job, busiest master", "µs",
				onCluster.manyTopics.cpu.busiest(), onOne.manyTopics.cpu.busiest());
		this.report.note("Rows C1-C12 compare the cluster (first column) with one Redis (second); no Redisson "
				+ "runs here. A master's CPU includes feeding its replica, which one Redis has not. Redis CPU per "
				+ "job on each master of the cluster: sendAll one topic " + onCluster.sendAll.cpu + "; sendAll "
				+ PARTITIONS + " partitions " + onCluster.sendAllPartitioned.cpu + "; burst one topic "
				+ onCluster.oneTopic.cpu + "; burst " + PARTITIONS + " partitions " + onCluster.partitioned.cpu
				+ "; burst over " + topics + " topics " + onCluster.manyTopics.cpu);
	}

	private void row(String scenario, String unit, double cluster, double one) {
		this.report.add(new Report.Row(scenario, unit, cluster, one, null));
	}

	private Figures measure(Target target) {
		System.out.println("  on " + target.name);
		target.flush.run();
		try (OurQueueClient client = new OurQueueClient(target.redisProperties, this.options.application())) {
			Figures figures = new Figures();
			Consumer<QueueClient.JobSink> burst = (sink) -> client.startConsumers(OurQueueClient.BURST,
					this.options.consumers(), sink);
			Consumer<QueueClient.JobSink> partitioned = (sink) -> client.startConsumers(OurQueueClient.PARTITIONED, 8,
					sink);
			// Warm up the sends, the consumers and the JIT before the clock runs.
			sendAll(client, BATCH_TOPIC, Math.min(this.options.batchJobs(), 20_000));
			sendAll(client, OurQueueClient.PARTITIONED, Math.min(this.options.batchJobs(), 20_000));
			target.flush.run();
			drain(List.of(OurQueueClient.BURST), burst, client, Math.min(this.options.burstJobs(), 20_000), target);
			drain(List.of(OurQueueClient.PARTITIONED), partitioned, client, Math.min(this.options.burstJobs(), 20_000),
					target);
			target.flush.run();
			figures.sendAll = timedSendAll(client, BATCH_TOPIC, target);
			figures.sendAllPartitioned = timedSendAll(client, OurQueueClient.PARTITIONED, target);
			figures.oneTopic = drain(List.of(OurQueueClient.BURST), burst, client, this.options.burstJobs(), target);
			figures.partitioned = drain(List.of(OurQueueClient.PARTITIONED), partitioned, client,
					this.options.burstJobs(), target);
			figures.manyTopics = drain(OurQueueClient.manyTopics(), client::startManyTopicsListener, client,
					this.options.burstJobs(), target);
			return figures;
		}
	}

	private Measured timedSendAll(QueueClient client, String topic, Target target) {
		Map<Integer, Double> before = target.cpu.get();
		long started = System.nanoTime();
		sendAll(client, topic, this.options.batchJobs());
		double rate = this.options.batchJobs() / ((System.nanoTime() - started) / 1e9);
		Measured measured = new Measured(rate, CpuPerJob.between(before, target.cpu.get(), this.options.batchJobs()));
		target.flush.run();
		return measured;
	}

	private static void sendAll(QueueClient client, String topic, int jobs) {
		long farAway = System.currentTimeMillis() + TimeUnit.DAYS.toMillis(1);
		String payload = Payloads.of(farAway);
		for (int sent = 0; sent < jobs; sent += 10_000) {
			client.sendMany(topic, Collections.nCopies(Math.min(10_000, jobs - sent), payload), farAway);
		}
	}

	// Jobs due together, spread evenly over the topics, drained by the consumers start
	// starts; jobs per second from the due time to the last acknowledgement, and the
	// Redis CPU per job. Flushes Redis afterwards.
	private Measured drain(List<String> topics, Consumer<QueueClient.JobSink> start, QueueClient client, int jobs,
			Target target) {
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
			start.accept(sink);
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
		CpuPerJob cpu = CpuPerJob.between(before, target.cpu.get(), perTopic * topics.size());
		target.flush.run();
		return new Measured(perTopic * topics.size() / (Math.max(1, lastAck.get() - due) / 1000.0), cpu);
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

		Measured sendAll = Measured.NONE;

		Measured sendAllPartitioned = Measured.NONE;

		Measured oneTopic = Measured.NONE;

		Measured partitioned = Measured.NONE;

		Measured manyTopics = Measured.NONE;

	}

	/**
	 * Jobs per second, and the Redis CPU per job.
	 */
	private record Measured(double rate, CpuPerJob cpu) {

		static final Measured NONE = new Measured(0, CpuPerJob.NONE);

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
