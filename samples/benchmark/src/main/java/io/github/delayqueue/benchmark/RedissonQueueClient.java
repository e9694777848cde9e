package io.github.delayqueue.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's delayed queue as its documentation shows it: an {@link RBlockingQueue} with
 * an {@link RDelayedQueue} in front, {@code offer(payload, delay, unit)} to send and
 * {@code take()} on consumer threads. Payloads use {@link StringCodec}, the smallest
 * encoding Redisson offers, so that memory is compared on equal payloads.
 */
@SuppressWarnings("deprecation")
final class RedissonQueueClient implements QueueClient {

	// Outstanding asynchronous offers at most, so that a large batch does not queue
	// unbounded work in the client.
	private static final int ASYNC_WINDOW = 1000;

	private final RedissonClient redisson;

	private final Map<String, RDelayedQueue<String>> delayed = new ConcurrentHashMap<>();

	private final List<Thread> consumers = new ArrayList<>();

	RedissonQueueClient(BenchmarkRedis redis) {
		Config config = new Config();
		// Its default 3 s reply timeout failed a send in a quick run on a loaded 2-core
		// machine (Flight Recorder on); a stall must slow the figures, not end the run.
		config.useSingleServer().setAddress(redis.url()).setTimeout(30_000);
		this.redisson = Redisson.create(config);
	}

	@Override
	public String name() {
		return "Redisson";
	}

	private RBlockingQueue<String> queue(String topic) {
		return this.redisson.getBlockingQueue(topic, StringCodec.INSTANCE);
	}

	private RDelayedQueue<String> delayed(String topic) {
		return this.delayed.computeIfAbsent(topic, (name) -> this.redisson.getDelayedQueue(queue(name)));
	}

	@Override
	public void send(String topic, String payload, long delayMillis) {
		delayed(topic).offer(payload, delayMillis, TimeUnit.MILLISECONDS);
	}

	@Override
	public void sendAt(String topic, String payload, long dueAtMillis) {
		delayed(topic).offer(payload, Math.max(0, dueAtMillis - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
	}

	@Override
	public void sendMany(String topic, List<String> payloads, long dueAtMillis) {
		RDelayedQueue<String> queue = delayed(topic);
		List<CompletableFuture<Void>> window = new ArrayList<>(ASYNC_WINDOW);
		for (String payload : payloads) {
			long delay = Math.max(0, dueAtMillis - System.currentTimeMillis());
			RFuture<Void> offer = queue.offerAsync(payload, delay, TimeUnit.MILLISECONDS);
			window.add(offer.toCompletableFuture());
			if (window.size() == ASYNC_WINDOW) {
				CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
				window.clear();
			}
		}
		CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
	}

	@Override
	public void startConsumers(String topic, int threads, JobSink sink) {
		delayed(topic);
		RBlockingQueue<String> queue = queue(topic);
		for (int i = 0; i < threads; i++) {
			Thread consumer = new Thread(() -> {
				while (!Thread.currentThread().isInterrupted()) {
					try {
						String payload = queue.take();
						sink.started(payload);
						sink.acknowledged();
					}
					catch (InterruptedException ex) {
						return;
					}
					catch (RuntimeException ex) {
						if (this.redisson.isShutdown() || Thread.currentThread().isInterrupted()) {
							return;
						}
					}
				}
			}, "redisson-consumer-" + topic + "-" + i);
			consumer.setDaemon(true);
			consumer.start();
			this.consumers.add(consumer);
		}
	}

	@Override
	public void stopConsumers() {
		this.consumers.forEach(Thread::interrupt);
		for (Thread consumer : this.consumers) {
			try {
				consumer.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.consumers.clear();
	}

	@Override
	public String readyListKey(String topic) {
		return topic;
	}

	@Override
	public void close() {
		stopConsumers();
		this.delayed.values().forEach(RDelayedQueue::destroy);
		this.redisson.shutdown();
	}

}
