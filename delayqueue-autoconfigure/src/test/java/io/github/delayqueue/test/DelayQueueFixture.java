package io.github.delayqueue.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.internal.scheduler.DelayedJobScheduler;
import io.github.delayqueue.internal.store.DelayQueueKeys;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.support.TopicPolicies;
import io.github.delayqueue.internal.support.TopicPolicy;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The delay queue's parts wired by hand against a real Redis (the shared cluster in the
 * suite's cluster run, see {@link RedisExtension}), for tests that exercise them below
 * the auto-configuration. Closing it stops what it started.
 */
public final class DelayQueueFixture implements AutoCloseable {

	public static final String PREFIX = "dq";

	private final LettuceConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys = new DelayQueueKeys(PREFIX);

	private final JsonMapper jsonMapper = JsonMapper.builder().build();

	private final JobRecordCodec codec = new JobRecordCodec(this.jsonMapper);

	private final JobStore store;

	private final List<DelayedJobScheduler> schedulers = new ArrayList<>();

	public DelayQueueFixture(RedisTestServer server) {
		// The suite's cluster run puts the hand-wired parts on the cluster too.
		this.connectionFactory = RedisExtension.connectionFactory(server);
		this.redis = new StringRedisTemplate(this.connectionFactory);
		this.redis.afterPropertiesSet();
		this.scripts = new ScriptRunner(this.redis);
		this.store = new JobStore(this.scripts, this.keys, this.codec);
	}

	public DelayQueueTemplate template() {
		return new DelayQueueTemplate(this.store, this.codec, this.jsonMapper);
	}

	public DefaultDelayQueueAdmin admin() {
		return new DefaultDelayQueueAdmin(this.store);
	}

	public DelayedJobScheduler scheduler(int batchSize, Duration maxSleep) {
		return scheduler(batchSize, maxSleep, (topic) -> TopicPolicy.defaults());
	}

	public DelayedJobScheduler scheduler(int batchSize, Duration maxSleep, TopicPolicies policies) {
		DelayedJobScheduler scheduler = new DelayedJobScheduler(this.scripts, this.keys, this.store, policies,
				batchSize, maxSleep);
		this.schedulers.add(scheduler);
		return scheduler;
	}

	public StringRedisTemplate redis() {
		return this.redis;
	}

	public ScriptRunner scripts() {
		return this.scripts;
	}

	public DelayQueueKeys keys() {
		return this.keys;
	}

	public JobStore store() {
		return this.store;
	}

	public JobRecordCodec codec() {
		return this.codec;
	}

	public JsonMapper jsonMapper() {
		return this.jsonMapper;
	}

	public LettuceConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	/**
	 * Return the Redis server's clock in epoch milliseconds.
	 * @return the time
	 */
	public long redisTimeMillis() {
		Long time = this.redis.execute(
				(org.springframework.data.redis.core.RedisCallback<Long>) (connection) -> connection.serverCommands()
					.time());
		return (time != null) ? time : -1;
	}

	/**
	 * Return what a key takes in Redis's memory, by {@code MEMORY USAGE} of all its
	 * elements.
	 * @param key the key
	 * @return bytes, 0 for a missing key
	 */
	public long memoryUsage(String key) {
		Long bytes = this.redis.execute(
				RedisScript.of("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')", Long.class),
				List.of(key));
		return (bytes != null) ? bytes : 0;
	}

	@Override
	public void close() {
		this.schedulers.forEach(DelayedJobScheduler::stop);
		this.connectionFactory.destroy();
	}

}
