package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.ScriptRunner;
import io.github.delayqueue.internal.store.TopicKeys;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Redis side of recurring schedules: every method is one script call, or one
 * pipelined round trip of them, and each change is atomic in the hash tag it touches.
 * Every reply that tells the Redis time corrects this instance's {@link RedisClock}.
 *
 * @author delayqueue contributors
 */
final class ScheduleStore {

	/**
	 * How many entries each schedule's log keeps.
	 */
	static final int LOG_LENGTH = 20;

	// Most schedules decided by one script call, so that a thousand ticks at one instant
	// do not hold Redis in one piece.
	private static final int PRODUCE_SLICE = 200;

	private final ScriptRunner scripts;

	private final ScheduleKeys keys;

	private final JobRecordCodec codec;

	private final JsonMapper jsonMapper;

	private final RedisClock clock;

	private Runnable localListener = () -> {
	};

	private volatile JobHistory history = JobHistory.OFF;

	ScheduleStore(ScriptRunner scripts, ScheduleKeys keys, JobRecordCodec codec, JsonMapper jsonMapper,
			RedisClock clock) {
		this.scripts = scripts;
		this.keys = keys;
		this.codec = codec;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
	}

	/**
	 * Set who on this instance hears of the changes it announces.
	 * @param localListener the listener
	 */
	void setLocalListener(Runnable localListener) {
		this.localListener = localListener;
	}

	/**
	 * Set what the topics record of the jobs that ticks write (their timelines).
	 * @param history the topics' history settings
	 */
	void setJobHistory(JobHistory history) {
		this.history = history;
	}

	JsonMapper jsonMapper() {
		return this.jsonMapper;
	}

	/**
	 * Declare definitions for this instance and learn which definition of each holds.
	 * @param definitions the definitions
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return the holding definitions, in the order of the declarations
	 */
	List<Holding> declare(List<ScheduleDefinition> definitions, Duration live, Duration grace) {
		List<ScriptRunner.Call> calls = new ArrayList<>();
		for (int from = 0; from < definitions.size(); from += PRODUCE_SLICE) {
			List<String> args = new ArrayList<>(declarationArgs(live, grace, "declare"));
			for (ScheduleDefinition definition : definitions.subList(from,
					Math.min(definitions.size(), from + PRODUCE_SLICE))) {
				args.addAll(List.of(definition.id(), definition.hash(this.jsonMapper), definition.topic(),
						definition.toJson(this.jsonMapper)));
			}
			calls.add(new ScriptRunner.Call(DelayQueueScript.DECLARE_SCHEDULES, declarationKeys(), args));
		}
		List<Holding> holdings = new ArrayList<>(definitions.size());
		for (List<Object> reply : this.scripts.runPipelined(calls)) {
			this.clock.observed(ScriptRunner.asLong(reply.get(0)));
			for (int i = 1; i + 4 < reply.size(); i += 5) {
				String id = (String) reply.get(i);
				holdings.add(
						new Holding(id, (String) reply.get(i + 1), (String) reply.get(i + 2), (String) reply.get(i + 3),
								ScheduleDefinition.fromJson(id, (String) reply.get(i + 4), this.jsonMapper)));
			}
		}
		return holdings;
	}

	/**
	 * Save a definition made at run time, unless a running instance declares the id.
	 * @param definition the definition
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return the topic the schedule belonged to before, empty if the same or none, or
	 * {@code null} when a running instance declares the id
	 */
	String save(ScheduleDefinition definition, Duration live, Duration grace) {
		List<String> args = new ArrayList<>(declarationArgs(live, grace, "save"));
		args.addAll(List.of(definition.id(), definition.hash(this.jsonMapper), definition.topic(),
				definition.toJson(this.jsonMapper)));
		List<Object> reply = this.scripts
			.run(new ScriptRunner.Call(DelayQueueScript.DECLARE_SCHEDULES, declarationKeys(), args));
		return "saved".equals(reply.get(1)) ? (String) reply.get(2) : null;
	}

	/**
	 * Delete a schedule made at run time, unless a running instance declares it.
	 * @param id the schedule's id
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return {@code deleted}, {@code declared} or {@code absent}, and the topic it
	 * belonged to
	 */
	List<String> delete(String id, Duration live, Duration grace) {
		List<String> args = new ArrayList<>(declarationArgs(live, grace, "delete"));
		args.add(id);
		List<Object> reply = this.scripts
			.run(new ScriptRunner.Call(DelayQueueScript.DECLARE_SCHEDULES, declarationKeys(), args));
		return List.of((String) reply.get(1), (String) reply.get(2));
	}

	/**
	 * Forget declarations not renewed within the grace period, and the schedules left
	 * with none.
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return each removed schedule's topic, by id
	 */
	Map<String, String> expire(Duration live, Duration grace) {
		List<Object> reply = this.scripts.run(new ScriptRunner.Call(DelayQueueScript.DECLARE_SCHEDULES,
				declarationKeys(), declarationArgs(live, grace, "expire")));
		Map<String, String> removed = new LinkedHashMap<>();
		for (int i = 1; i + 1 < reply.size(); i += 2) {
			removed.put((String) reply.get(i), (String) reply.get(i + 1));
		}
		return removed;
	}

	private List<String> declarationKeys() {
		return this.keys.declarationKeys();
	}

	static List<String> declarationArgs(Duration live, Duration grace, String mode) {
		return List.of(String.valueOf(live.toMillis()), String.valueOf(grace.toMillis()), mode);
	}

	/**
	 * Let a definition take effect in its topic.
	 * @param definition the definition
	 * @param window ticks around the estimated Redis time
	 * @return the outcome
	 */
	Change activate(ScheduleDefinition definition, TickWindow window) {
		return activate(definition, window, 0);
	}

	/**
	 * Let a definition take effect in its topic, whose state's next tick fell due while
	 * no instance decided it: the new definition goes on from its first tick at or after
	 * that one, see {@code activate-schedule.lua}.
	 * @param definition the definition
	 * @param window ticks around the estimated Redis time
	 * @param behind the next tick the state held, as the call that answered
	 * {@code behind} told, or 0 for none
	 * @return the outcome
	 */
	Change activate(ScheduleDefinition definition, TickWindow window, long behind) {
		String topic = definition.topic();
		TopicKeys q = this.keys.queue(topic);
		List<String> args = new ArrayList<>(List.of(definition.id(), definition.hash(this.jsonMapper),
				definition.toJson(this.jsonMapper), flag(definition.enabled()), tail(definition),
				String.valueOf(LOG_LENGTH), String.valueOf(window.cutoff()), this.history.timelineArgument(q)));
		addTicks(args, window.ticks());
		if (behind > 0) {
			args.add(String.valueOf(behind));
			args.add(String.valueOf(definition.ticks().next(behind - 1)));
		}
		return change(this.scripts.run(new ScriptRunner.Call(
				DelayQueueScript.ACTIVATE_SCHEDULE, List.of(this.keys.states(topic), this.keys.definitions(topic),
						q.jobs(), q.ready(), q.dead(), q.attempts(), q.errors(), this.keys.log(topic, definition.id())),
				args)));
	}

	/**
	 * Pause a schedule.
	 * @param topic its topic
	 * @param id its id
	 * @return the outcome
	 */
	Change pause(String topic, String id) {
		return change(this.scripts.run(new ScriptRunner.Call(DelayQueueScript.PAUSE_SCHEDULE,
				List.of(this.keys.states(topic)), List.of(id, "1"))));
	}

	/**
	 * Resume a schedule.
	 * @param definition its definition
	 * @param window ticks around the estimated Redis time
	 * @return the outcome
	 */
	Change resume(ScheduleDefinition definition, TickWindow window) {
		List<String> args = new ArrayList<>(List.of(definition.id(), "0", definition.hash(this.jsonMapper),
				flag(definition.enabled()), String.valueOf(window.cutoff())));
		addTicks(args, window.ticks());
		return change(this.scripts.run(new ScriptRunner.Call(DelayQueueScript.PAUSE_SCHEDULE,
				List.of(this.keys.states(definition.topic())), args)));
	}

	/**
	 * Put a job of a schedule into its topic now.
	 * @param definition its definition
	 * @return the status and the job's id
	 */
	List<String> trigger(ScheduleDefinition definition) {
		String topic = definition.topic();
		TopicKeys q = this.keys.queue(topic);
		List<Object> reply = this.scripts.run(new ScriptRunner.Call(DelayQueueScript.TRIGGER_SCHEDULE,
				List.of(this.keys.states(topic), q.jobs(), q.ready(), q.dead(), q.attempts(), q.errors(),
						this.keys.log(topic, definition.id())),
				List.of(definition.id(), definition.hash(this.jsonMapper), tail(definition), String.valueOf(LOG_LENGTH),
						this.history.timelineArgument(q))));
		return List.of((String) reply.get(0), (String) reply.get(1));
	}

	/**
	 * Remove a schedule from a topic, with its job written ahead.
	 * @param topic the topic
	 * @param id the schedule's id
	 * @return whether the topic held it
	 */
	boolean remove(String topic, String id) {
		List<Object> reply = this.scripts.run(new ScriptRunner.Call(DelayQueueScript.REMOVE_SCHEDULE,
				List.of(this.keys.states(topic), this.keys.definitions(topic), this.keys.log(topic, id)), List.of(id)));
		return ScriptRunner.asLong(reply.get(0)) == 1;
	}

	/**
	 * Decide the due ticks of schedules, one script call per topic (or per slice of a
	 * topic's schedules), all in one round trip.
	 * @param requests the schedules and the windows of their ticks
	 * @return each topic's outcome, the decisions in the order of the requests
	 */
	List<Produced> produce(List<TickRequest> requests) {
		return produce(requests, 0);
	}

	/**
	 * Decide the due ticks of schedules as if the Redis clock were ahead, for tests that
	 * move a topic's time forward.
	 * @param requests the schedules and the windows of their ticks
	 * @param aheadMillis how far ahead of the Redis clock the ticks are decided
	 * @return each topic's outcome, the decisions in the order of the requests
	 */
	List<Produced> produce(List<TickRequest> requests, long aheadMillis) {
		Map<String, List<TickRequest>> byTopic = new LinkedHashMap<>();
		requests.forEach((request) -> byTopic.computeIfAbsent(request.definition().topic(), (t) -> new ArrayList<>())
			.add(request));
		List<ScriptRunner.Call> calls = new ArrayList<>();
		List<List<TickRequest>> slices = new ArrayList<>();
		byTopic.forEach((topic, all) -> {
			for (int from = 0; from < all.size(); from += PRODUCE_SLICE) {
				List<TickRequest> slice = all.subList(from, Math.min(all.size(), from + PRODUCE_SLICE));
				calls.add(produceCall(topic, slice, aheadMillis));
				slices.add(slice);
			}
		});
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		List<Produced> produced = new ArrayList<>(replies.size());
		for (int c = 0; c < replies.size(); c++) {
			List<Object> reply = replies.get(c);
			// The reply tells the time the ticks were decided at: the Redis time, ahead.
			this.clock.observed(ScriptRunner.asLong(reply.get(0)) - aheadMillis);
			List<TickRequest> slice = slices.get(c);
			List<Decision> decisions = new ArrayList<>(slice.size());
			for (int i = 0; i < slice.size(); i++) {
				int at = 1 + i * 6;
				decisions.add(new Decision(slice.get(i), (String) reply.get(at), ScriptRunner.asLong(reply.get(at + 1)),
						ScriptRunner.asLong(reply.get(at + 2)), ScriptRunner.asLong(reply.get(at + 3)),
						ScriptRunner.asLong(reply.get(at + 4)), ScriptRunner.asLong(reply.get(at + 5))));
			}
			produced.add(new Produced(slice.get(0).definition().topic(), ScriptRunner.asLong(reply.get(0)), decisions));
		}
		return produced;
	}

	private ScriptRunner.Call produceCall(String topic, List<TickRequest> requests, long aheadMillis) {
		TopicKeys q = this.keys.queue(topic);
		List<String> keys = new ArrayList<>(
				List.of(this.keys.states(topic), q.jobs(), q.ready(), q.dead(), q.attempts(), q.errors()));
		List<String> args = new ArrayList<>(
				List.of(String.valueOf(LOG_LENGTH), this.history.timelineArgument(q), String.valueOf(aheadMillis)));
		for (TickRequest request : requests) {
			ScheduleDefinition definition = request.definition();
			TickWindow window = request.window();
			keys.add(this.keys.log(topic, definition.id()));
			args.addAll(List.of(definition.id(), definition.hash(this.jsonMapper), String.valueOf(request.next()),
					misfire(definition.misfire()), String.valueOf(definition.catchUpLimit()),
					definition.overlap().name().toLowerCase(Locale.ROOT), tail(definition),
					String.valueOf(window.first()), String.valueOf(window.older()), String.valueOf(window.cutoff())));
			addTicks(args, window.ticks());
		}
		return new ScriptRunner.Call(DelayQueueScript.PRODUCE_TICK, keys, args);
	}

	/**
	 * Read which topic every schedule belongs to, and its declarations, in one round
	 * trip.
	 * @return the registry and the declarations
	 */
	Registry registry() {
		List<Object> reply = this.scripts.run(new ScriptRunner.Call(DelayQueueScript.READ_SCHEDULES,
				List.of(this.keys.registry(), this.keys.declarations()), List.of("*")));
		List<Map<String, String>> hashes = new ArrayList<>(2);
		int at = 1;
		for (int h = 0; h < 2; h++) {
			Map<String, String> hash = new LinkedHashMap<>();
			int count = (int) ScriptRunner.asLong(reply.get(at++));
			for (int i = 0; i < count; i++, at += 2) {
				hash.put((String) reply.get(at), (String) reply.get(at + 1));
			}
			hashes.add(hash);
		}
		this.clock.observed(ScriptRunner.asLong(reply.get(0)));
		return new Registry(ScriptRunner.asLong(reply.get(0)), hashes.get(0), hashes.get(1));
	}

	/**
	 * Read the definitions and states of the schedules of several topics, and the logs of
	 * the schedules named, one script call per topic, all in one round trip.
	 * @param logsByTopic each topic's schedules whose logs are read (none to read no log)
	 * @return each topic's schedules, by topic
	 */
	Map<String, TopicSchedules> read(Map<String, List<String>> logsByTopic) {
		List<ScriptRunner.Call> calls = new ArrayList<>();
		List<String> topics = new ArrayList<>(logsByTopic.keySet());
		for (String topic : topics) {
			TopicKeys q = this.keys.queue(topic);
			List<String> keys = new ArrayList<>(List.of(this.keys.definitions(topic), this.keys.states(topic), q.jobs(),
					q.delayed(), q.running(), q.dead()));
			List<String> ids = logsByTopic.get(topic);
			ids.forEach((id) -> keys.add(this.keys.log(topic, id)));
			calls.add(new ScriptRunner.Call(DelayQueueScript.READ_SCHEDULES, keys, ids));
		}
		List<List<Object>> replies = this.scripts.runPipelined(calls);
		Map<String, TopicSchedules> read = new LinkedHashMap<>();
		for (int t = 0; t < topics.size(); t++) {
			read.put(topics.get(t), TopicSchedules.of(replies.get(t), logsByTopic.get(topics.get(t))));
		}
		return read;
	}

	/**
	 * Tell the tick loops of every instance that a schedule changed.
	 * @param id the schedule's id
	 */
	void announce(String id) {
		this.localListener.run();
		this.scripts.redis().convertAndSend(this.keys.changeChannel(), id);
	}

	/**
	 * Return the tail of a tick job's record: no time to run or attempts of its own, no
	 * headers, the schedule's payload.
	 * @param definition the definition
	 * @return the tail
	 */
	String tail(ScheduleDefinition definition) {
		return this.codec.encodeTail(null, null, Map.of(), definition.payloadJson());
	}

	private static void addTicks(List<String> args, List<Long> ticks) {
		args.add(String.valueOf(ticks.size()));
		ticks.forEach((tick) -> args.add(String.valueOf(tick)));
	}

	private static String flag(boolean value) {
		return value ? "1" : "0";
	}

	private static String misfire(Misfire misfire) {
		return switch (misfire) {
			case FIRE_ONCE -> "once";
			case SKIP -> "skip";
			case FIRE_ALL -> "all";
		};
	}

	private Change change(List<Object> reply) {
		Change change = new Change((String) reply.get(0), ScriptRunner.asLong(reply.get(1)),
				ScriptRunner.asLong(reply.get(2)));
		this.clock.observed(change.now());
		return change;
	}

	/**
	 * Which topic every schedule belongs to, and its declarations.
	 *
	 * @param now the Redis time
	 * @param topics the topic of each schedule, by id
	 * @param declarations the declarations of each schedule, by id, see
	 * {@code declare-schedules.lua}
	 */
	record Registry(long now, Map<String, String> topics, Map<String, String> declarations) {

	}

	/**
	 * The definition that holds for a schedule.
	 *
	 * @param id the schedule's id
	 * @param hash the definition's hash
	 * @param topic its topic
	 * @param previousTopic the topic the schedule belonged to before, or empty
	 * @param definition the definition
	 */
	record Holding(String id, String hash, String topic, String previousTopic, ScheduleDefinition definition) {

	}

	/**
	 * The outcome of a change to a schedule's state.
	 *
	 * @param status what the script did
	 * @param now the Redis time
	 * @param next the schedule's next tick, or 0
	 */
	record Change(String status, long now, long next) {

	}

	/**
	 * A schedule whose next tick is to be decided.
	 *
	 * @param definition its definition
	 * @param next the next tick, as this instance believes
	 * @param window the ticks after it
	 */
	record TickRequest(ScheduleDefinition definition, long next, TickWindow window) {

	}

	/**
	 * The decisions of one script call.
	 *
	 * @param topic the topic
	 * @param now the Redis time
	 * @param decisions each schedule's decision
	 */
	record Produced(String topic, long now, List<Decision> decisions) {

	}

	/**
	 * The decision on one schedule.
	 *
	 * @param request what it was asked for
	 * @param status {@code done}, {@code early}, {@code stale}, {@code changed},
	 * {@code paused}, {@code absent} or {@code clock}
	 * @param next its next tick now
	 * @param produced how many ticks produced a job
	 * @param skipped how many were skipped as overlapping
	 * @param missed how many were missed
	 * @param last the latest tick decided, or 0
	 */
	record Decision(TickRequest request, String status, long next, long produced, long skipped, long missed,
			long last) {

		/**
		 * Return the schedule's definition.
		 * @return the definition
		 */
		ScheduleDefinition definition() {
			return this.request.definition();
		}

	}

}
