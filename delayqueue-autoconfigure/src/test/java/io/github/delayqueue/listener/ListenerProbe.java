package io.github.delayqueue.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayedJob;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * What the listeners of a test did, for the test to wait on and check: each delivery in
 * order, the futures asynchronous listeners returned (in the same order), the results of
 * their extensions (keyed by attempt), and a gate that blocking listeners wait behind
 * until the test opens it.
 */
class ListenerProbe {

	final List<DelayedJob<?>> deliveries = new CopyOnWriteArrayList<>();

	final List<CompletableFuture<String>> futures = new CopyOnWriteArrayList<>();

	final Map<Integer, Boolean> extensions = new ConcurrentHashMap<>();

	final CountDownLatch gate = new CountDownLatch(1);

	void delivered(DelayedJob<?> job) {
		this.deliveries.add(job);
	}

	CompletableFuture<String> futureFor(DelayedJob<?> job) {
		delivered(job);
		CompletableFuture<String> future = new CompletableFuture<>();
		this.futures.add(future);
		return future;
	}

	List<Integer> attempts() {
		return this.deliveries.stream().map(DelayedJob::attempt).toList();
	}

	void awaitAttempts(int count) {
		await().atMost(Duration.ofSeconds(15)).until(() -> this.deliveries.size() >= count);
	}

	void waitAtGate() throws InterruptedException {
		// Bounded, so that a failing test ends rather than hangs.
		this.gate.await(30, TimeUnit.SECONDS);
	}

	void open() {
		this.gate.countDown();
	}

	static JobInfo awaitState(DelayQueueOperations queue, String topic, String id, JobState state) {
		return await().atMost(Duration.ofSeconds(15))
			.until(() -> queue.find(topic, id).orElse(null), (job) -> job != null && job.state() == state);
	}

	static void awaitGone(DelayQueueOperations queue, String topic, String id) {
		await().atMost(Duration.ofSeconds(15)).until(() -> queue.find(topic, id).isEmpty());
	}

	static long redisNow(StringRedisTemplate redis) {
		Long now = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (now != null) ? now : -1;
	}

	static long deadline(StringRedisTemplate redis, String topic, String id) {
		Double score = redis.opsForZSet().score("{dq:" + topic + "}:running", id);
		return (score != null) ? score.longValue() : -1;
	}

}
