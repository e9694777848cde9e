package io.github.delayqueue.internal.presence;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.listener.DelayedJobListenerContainer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Which listeners run on which instance, as the instances themselves publish it to one
 * Redis hash, {@code <prefix>:listeners}: field = instance id, value = a small JSON
 * document {@code {"host":..., "at": <ms>, "listeners":[{"id":..., "topics":[...],
 * "concurrency":n, "running":b}]}}.
 * <p>
 * Each instance that runs listeners refreshes its entry every
 * {@linkplain #REFRESH_INTERVAL 15 seconds} and removes it when it stops; an entry not
 * refreshed for three intervals belongs to an instance that died, so readers ignore it
 * and remove it. A topic that no entry lists has no listener anywhere: a typo in a topic
 * name shows.
 *
 * @author delayqueue contributors
 */
public class ListenerPresence {

	/**
	 * How often an instance refreshes its entry.
	 */
	public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(15);

	private static final Log logger = LogFactory.getLog(ListenerPresence.class);

	// A private mapper: the entries' shape must not follow the application's Jackson
	// settings, since other instances read them.
	private static final JsonMapper jsonMapper = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	private final StringRedisTemplate redis;

	private final String key;

	private final Duration refreshInterval;

	private final Clock clock;

	/**
	 * Create the presence of a key prefix, refreshed every {@link #REFRESH_INTERVAL}.
	 * @param redis where the hash lives
	 * @param keyPrefix the prefix of every key ({@code delayqueue.key-prefix})
	 */
	public ListenerPresence(StringRedisTemplate redis, String keyPrefix) {
		this(redis, keyPrefix, REFRESH_INTERVAL, Clock.systemUTC());
	}

	/**
	 * Create the presence of a key prefix.
	 * @param redis where the hash lives
	 * @param keyPrefix the prefix of every key ({@code delayqueue.key-prefix})
	 * @param refreshInterval how often instances refresh their entries; entries older
	 * than three intervals are stale
	 * @param clock the clock entries are stamped and judged with; instances' clocks may
	 * differ by far less than the three intervals without harm
	 */
	public ListenerPresence(StringRedisTemplate redis, String keyPrefix, Duration refreshInterval, Clock clock) {
		this.redis = redis;
		this.key = keyPrefix + ":listeners";
		this.refreshInterval = refreshInterval;
		this.clock = clock;
	}

	/**
	 * Return how often instances refresh their entries.
	 * @return the interval
	 */
	public Duration getRefreshInterval() {
		return this.refreshInterval;
	}

	/**
	 * Return the name of the hash.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Write or refresh an instance's entry.
	 * @param instance the instance id
	 * @param host the host name, for people
	 * @param listeners the instance's listeners
	 */
	public void publish(String instance, String host, List<Listener> listeners) {
		Entry entry = new Entry(host, this.clock.millis(), listeners);
		this.redis.opsForHash().put(this.key, instance, jsonMapper.writeValueAsString(entry));
	}

	/**
	 * Remove an instance's entry.
	 * @param instance the instance id
	 */
	public void remove(String instance) {
		this.redis.opsForHash().delete(this.key, instance);
	}

	/**
	 * Read the entries of every live instance, removing stale and unreadable ones.
	 * @return the instances, by id
	 */
	public List<Instance> read() {
		Map<Object, Object> entries = this.redis.opsForHash().entries(this.key);
		long oldest = this.clock.millis() - this.refreshInterval.toMillis() * 3;
		List<Instance> live = new ArrayList<>();
		List<Object> stale = new ArrayList<>();
		entries.forEach((field, value) -> {
			Entry entry = parse(String.valueOf(field), String.valueOf(value));
			if (entry == null || entry.at() < oldest) {
				stale.add(field);
			}
			else {
				live.add(new Instance(String.valueOf(field), entry.host(), entry.at(), entry.listeners()));
			}
		});
		if (!stale.isEmpty()) {
			this.redis.opsForHash().delete(this.key, stale.toArray());
		}
		live.sort((a, b) -> a.id().compareTo(b.id()));
		return live;
	}

	private static Entry parse(String instance, String json) {
		try {
			Entry entry = jsonMapper.readValue(json, Entry.class);
			return (entry.listeners() != null) ? entry : null;
		}
		catch (JacksonException ex) {
			logger.debug("Removing unreadable listener presence of instance '" + instance + "'", ex);
			return null;
		}
	}

	/**
	 * Return the topics of a set that no listener of any of the instances consumes.
	 * @param topics the topics
	 * @param instances the live instances
	 * @return the topics without listener, sorted
	 */
	public static Set<String> topicsWithoutListeners(Collection<String> topics, List<Instance> instances) {
		Set<String> without = new TreeSet<>(topics);
		for (Instance instance : instances) {
			for (Listener listener : instance.listeners()) {
				listener.topics().forEach(without::remove);
			}
		}
		return without;
	}

	/**
	 * Return this machine's host name, or {@code unknown}; for people, not for routing.
	 * @return the host name
	 */
	public static String hostName() {
		String host = System.getenv("HOSTNAME");
		if (host != null && !host.isBlank()) {
			return host;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			return "unknown";
		}
	}

	/**
	 * A listener as its instance publishes it.
	 *
	 * @param id the listener id
	 * @param topics the topics it consumes, in priority order
	 * @param concurrency how many jobs it may run at once
	 * @param running whether it is started
	 */
	public record Listener(String id, List<String> topics, int concurrency, boolean running) {

		static Listener of(DelayedJobListenerContainer container) {
			return new Listener(container.getListenerId(), container.getTopics(), container.getConcurrency(),
					container.isRunning());
		}

	}

	/**
	 * An instance and its listeners.
	 *
	 * @param id the instance id
	 * @param host the host name
	 * @param at when the instance last refreshed its entry, in epoch ms by its clock
	 * @param listeners its listeners
	 */
	public record Instance(String id, String host, long at, List<Listener> listeners) {

		/**
		 * Return this instance with its host name hidden, for someone who may not see it:
		 * the host part of its id too, while the random part keeps instances apart.
		 * @return the instance without its host name
		 */
		public Instance withoutHost() {
			int colon = this.id.lastIndexOf(':');
			String id = (colon >= 0) ? JobInfo.HIDDEN + this.id.substring(colon) : JobInfo.HIDDEN;
			return new Instance(id, JobInfo.HIDDEN, this.at, this.listeners);
		}

	}

	record Entry(String host, long at, List<Listener> listeners) {

	}

}
