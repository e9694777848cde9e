package io.github.delayqueue.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.internal.store.TopicKeys;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * Checks, from Redis itself, that every job of a topic is in exactly one state: each id
 * of the jobs hash is in exactly one of delayed, ready or claiming, running and dead, and
 * no structure holds an id without a record. All keys are read by one script, so the
 * snapshot is atomic and every transition (itself one script) is either wholly in it or
 * wholly out of it.
 */
final class QueueInvariants {

	private static final DefaultRedisScript<List> SCRIPT = new DefaultRedisScript<>();

	static {
		SCRIPT.setLocation(new ClassPathResource("check-invariants.lua", QueueInvariants.class));
		SCRIPT.setResultType(List.class);
	}

	private final StringRedisTemplate redis;

	private final TopicKeys keys;

	private final AtomicInteger checks = new AtomicInteger();

	private final List<String> violations = new CopyOnWriteArrayList<>();

	QueueInvariants(StringRedisTemplate redis, String topic) {
		this.redis = redis;
		this.keys = TopicKeys.of("dq", topic);
	}

	/**
	 * Take one snapshot and remember what it found wrong.
	 * @return the snapshot
	 */
	Snapshot check() {
		List<?> reply = this.redis.execute(SCRIPT, List.of(this.keys.jobs(), this.keys.delayed(), this.keys.ready(),
				this.keys.claiming(), this.keys.running(), this.keys.dead(), this.keys.ghosts()));
		List<String> found = new ArrayList<>();
		for (int i = 6; i < reply.size(); i++) {
			found.add(String.valueOf(reply.get(i)));
		}
		this.checks.incrementAndGet();
		this.violations.addAll(found);
		return new Snapshot(count(reply, 0), count(reply, 1), count(reply, 2), count(reply, 3), count(reply, 4),
				count(reply, 5), found);
	}

	/**
	 * Check now, tolerating a Redis that is down or paused: a check that cannot run finds
	 * nothing, it does not fail the scenario.
	 */
	void checkQuietly() {
		try {
			check();
		}
		catch (RuntimeException ex) {
			// Redis is the fault under test right now; the next check will look again.
		}
	}

	int checks() {
		return this.checks.get();
	}

	List<String> violations() {
		return this.violations;
	}

	private static long count(List<?> reply, int index) {
		return ((Number) reply.get(index)).longValue();
	}

	/**
	 * One atomic view of a topic.
	 *
	 * @param jobs records in the jobs hash
	 * @param delayed ids in the delayed set
	 * @param ready ids in the ready list
	 * @param claiming ids in the claiming list
	 * @param running ids in the running set
	 * @param dead ids in the dead set
	 * @param violations what breaks the invariant
	 */
	record Snapshot(long jobs, long delayed, long ready, long claiming, long running, long dead,
			List<String> violations) {

		boolean settled() {
			return this.delayed == 0 && this.ready == 0 && this.claiming == 0 && this.running == 0
					&& this.jobs == this.dead;
		}

	}

}
