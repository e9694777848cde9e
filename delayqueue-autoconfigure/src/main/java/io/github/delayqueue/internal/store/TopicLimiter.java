package io.github.delayqueue.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The Redis side of a topic's limits across instances: a rate limit on handler starts and
 * a global concurrency, decided on the Redis clock by {@code acquire-permits.lua}, and a
 * hold that keeps a whole topic back for a while; each group of the topic may have a rate
 * limit and a concurrency of its own. All of a topic's limit state lives under the keys
 * of its first queue, in the topic's own hash tag, so that one script call decides for
 * every partition of the topic, on a Redis Cluster as well. Topics without limits never
 * come here.
 *
 * @author delayqueue contributors
 */
public final class TopicLimiter {

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	TopicLimiter(ScriptRunner scripts, DelayQueueKeys keys) {
		this.scripts = scripts;
		this.keys = keys;
	}

	/**
	 * Admit claimed deliveries of a topic under its limits, in order, as many as the
	 * limits allow.
	 * @param topic the topic
	 * @param limits the topic's limits
	 * @param deliveries the deliveries, each with its time to run
	 * @return how many of the first deliveries are admitted, and how long until one more
	 * may be
	 */
	public Admission admit(String topic, Limits limits, List<Delivery> deliveries) {
		return admit(topic, limits, "", deliveries);
	}

	/**
	 * Admit claimed deliveries of a topic under its limits, in order, as many as the
	 * limits allow, for a listener that takes its turn at the global concurrency's
	 * permits: refused for want of a permit, it joins the topic's line, and permits given
	 * back are kept for those ahead of it until they ask again.
	 * @param topic the topic
	 * @param limits the topic's limits
	 * @param listener the asking listener's name, unique among those running, or
	 * {@code ""} for a caller that never joins the line
	 * @param deliveries the deliveries, each with its time to run
	 * @return how many of the first deliveries are admitted, and how long until one more
	 * may be
	 */
	public Admission admit(String topic, Limits limits, String listener, List<Delivery> deliveries) {
		if (deliveries.isEmpty()) {
			return new Admission(0, Duration.ZERO, -1, -1, "", Map.of());
		}
		TopicKeys k = this.keys.topic(topic);
		List<String> args = new ArrayList<>(6 + 3 * deliveries.size());
		args.add(String.valueOf(limits.rateLimit()));
		args.add(String.valueOf(limits.period().toMillis()));
		args.add(String.valueOf(limits.globalConcurrency()));
		args.add(String.valueOf(limits.groupConcurrency()));
		args.add(String.valueOf(limits.groupRateLimit()));
		args.add(String.valueOf(limits.groupPeriod().toMillis()));
		args.add(listener);
		for (Delivery delivery : deliveries) {
			args.add(delivery.member());
			args.add(String.valueOf(delivery.ttr().toMillis()));
			args.add((delivery.group() != null) ? delivery.group() : "");
		}
		List<Object> reply = this.scripts.run(DelayQueueScript.ACQUIRE_PERMITS,
				List.of(k.startCounts(), k.permits(), k.held(), k.permitTurns(), k.permitTurnsSeen()),
				args.toArray(String[]::new));
		Map<String, @Nullable Duration> groupWaits = new LinkedHashMap<>();
		for (int i = 5; i + 1 < reply.size(); i += 2) {
			groupWaits.put((String) reply.get(i), waitOf(reply.get(i + 1)));
		}
		return new Admission((int) ScriptRunner.asLong(reply.get(0)), waitOf(reply.get(1)),
				ScriptRunner.asLong(reply.get(2)), (int) ScriptRunner.asLong(reply.get(3)), (String) reply.get(4),
				groupWaits);
	}

	private static @Nullable Duration waitOf(Object reply) {
		long wait = ScriptRunner.asLong(reply);
		return (wait < 0) ? null : Duration.ofMillis(wait);
	}

	/**
	 * Give back the global concurrency permits of settled or handed-back deliveries.
	 * @param topic the topic
	 * @param members the deliveries' members, see {@link Delivery#member()}
	 * @return how many permits were held and are given back
	 */
	public long release(String topic, List<String> members) {
		return release(topic, null, members);
	}

	/**
	 * Give back the global concurrency permits of settled or handed-back deliveries of
	 * one group, and the group's own permits.
	 * @param topic the topic
	 * @param group the deliveries' group, or {@code null} for none
	 * @param members the deliveries' members, see {@link Delivery#member()}
	 * @return how many permits were held and are given back
	 */
	public long release(String topic, @Nullable String group, List<String> members) {
		if (members.isEmpty()) {
			return 0;
		}
		String[] args = new String[members.size() + 1];
		args[0] = (group != null) ? group : "";
		for (int i = 0; i < members.size(); i++) {
			args[i + 1] = members.get(i);
		}
		return ScriptRunner
			.asLong(this.scripts.run(DelayQueueScript.RELEASE_PERMITS, List.of(this.keys.topic(topic).permits()), args)
				.get(0));
	}

	/**
	 * Keep a delivery's global concurrency permit, and its group's, until its extended
	 * deadline.
	 * @param topic the topic
	 * @param group the delivery's group, or {@code null} for none
	 * @param member the delivery's member, see {@link Delivery#member()}
	 * @param deadline the new deadline in epoch ms by the Redis clock
	 * @return {@code false} if no permit is held any longer
	 */
	public boolean extend(String topic, @Nullable String group, String member, long deadline) {
		return ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.EXTEND_PERMIT, List.of(this.keys.topic(topic).permits()), member,
							String.valueOf(deadline), (group != null) ? group : "")
					.get(0)) == 1;
	}

	/**
	 * Hold a whole topic back on every instance: no delivery of it is admitted for a
	 * while. A shorter hold never cuts a longer one short.
	 * @param topic the topic
	 * @param duration how long
	 * @return the hold's time left
	 */
	public Duration hold(String topic, Duration duration) {
		long left = ScriptRunner.asLong(
				this.scripts
					.run(DelayQueueScript.HOLD_TOPIC, List.of(this.keys.topic(topic).held()),
							String.valueOf(Math.max(1, duration.toMillis())))
					.get(0));
		return Duration.ofMillis(Math.max(0, left));
	}

	/**
	 * The limits of one topic across every instance.
	 *
	 * @param rateLimit most handler starts in any window of one period, or 0 for no rate
	 * limit
	 * @param period the rate limit's window
	 * @param globalConcurrency most deliveries running at once, or 0 for no bound
	 * @param groupConcurrency most deliveries of each group running at once, or 0 for no
	 * bound
	 * @param groupRateLimit most handler starts of each group in any window of one
	 * {@code groupPeriod}, or 0 for no rate limit
	 * @param groupPeriod each group's rate limit window
	 */
	public record Limits(int rateLimit, Duration period, int globalConcurrency, int groupConcurrency,
			int groupRateLimit, Duration groupPeriod) {

		/**
		 * Limits of a topic whose groups have no bounds of their own.
		 * @param rateLimit most handler starts in any window of one period, or 0 for no
		 * rate limit
		 * @param period the rate limit's window
		 * @param globalConcurrency most deliveries running at once, or 0 for no bound
		 */
		public Limits(int rateLimit, Duration period, int globalConcurrency) {
			this(rateLimit, period, globalConcurrency, 0, 0, Duration.ofSeconds(1));
		}

	}

	/**
	 * A claimed delivery waiting for admission.
	 *
	 * @param id the job id
	 * @param attempt the delivery's number
	 * @param ttr its time to run, after which a permit it holds is free again
	 * @param group the job's group, or {@code null} for none
	 */
	public record Delivery(String id, int attempt, Duration ttr, @Nullable String group) {

		/**
		 * A delivery of a job without a group.
		 * @param id the job id
		 * @param attempt the delivery's number
		 * @param ttr its time to run, after which a permit it holds is free again
		 */
		public Delivery(String id, int attempt, Duration ttr) {
			this(id, attempt, ttr, null);
		}

		/**
		 * Return the name the delivery's permit is held under.
		 * @return the job id and attempt
		 */
		public String member() {
			return member(this.id, this.attempt);
		}

		/**
		 * Return the name a delivery's permit is held under.
		 * @param id the job id
		 * @param attempt the delivery's number
		 * @return the job id and attempt
		 */
		public static String member(String id, int attempt) {
			return id + ":" + attempt;
		}

	}

	/**
	 * The outcome of an admission.
	 *
	 * @param admitted how many deliveries are admitted
	 * @param retryAfter when the topic's limits refused some: how long until they may
	 * admit one more, or {@code null} if only a permit given back can (global
	 * concurrency)
	 * @param redisNow the Redis clock when the deliveries were admitted, in epoch ms: the
	 * start the rate limit counted them at
	 * @param room how many more starts the rate limit admits now, or -1 if the topic has
	 * no rate limit
	 * @param verdicts one letter per delivery, in order: {@code a} admitted, {@code t}
	 * refused by the topic's limits, {@code g} refused by its group's
	 * @param groupWaits each group that refused a delivery, with how long until it may
	 * admit one more, or {@code null} if only a permit given back can
	 */
	public record Admission(int admitted, @Nullable Duration retryAfter, long redisNow, int room, String verdicts,
			Map<String, @Nullable Duration> groupWaits) {

		/**
		 * Tell whether a delivery is admitted.
		 * @param index the delivery's place in the admission
		 * @return {@code true} if admitted
		 */
		public boolean admits(int index) {
			return this.verdicts.charAt(index) == 'a';
		}

		/**
		 * Tell whether the topic's own limits, not only its groups', refused deliveries.
		 * @return {@code true} if they refused one
		 */
		public boolean refusedByTopic() {
			return this.verdicts.indexOf('t') >= 0;
		}

	}

}
