package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.internal.store.ScriptRunner;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * This instance's renewal of its declared schedules: one field in Redis for all of them,
 * renewed every heartbeat by one script call whose cost does not grow with the number of
 * schedules; see {@code declare-schedules.lua}. The schedules themselves are declared one
 * by one only when this instance's set of definitions is new to Redis, or when the sets
 * that running instances renew changed, which is when a different definition may hold.
 *
 * @author delayqueue contributors
 */
final class DeclarationRenewals {

	// A process's own name: two instances on one host, or one restarted, never share a
	// renewal.
	private final String instance = UUID.randomUUID().toString();

	private final ScriptRunner scripts;

	private final ScheduleKeys keys;

	private final RedisClock clock;

	private final JsonMapper jsonMapper;

	DeclarationRenewals(ScriptRunner scripts, ScheduleKeys keys, RedisClock clock, JsonMapper jsonMapper) {
		this.scripts = scripts;
		this.keys = keys;
		this.clock = clock;
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Name a set of definitions by their ids and hashes.
	 * @param definitions the definitions
	 * @return the set
	 */
	DeclaredSet setOf(List<ScheduleDefinition> definitions) {
		List<String> entries = new ArrayList<>(definitions.size());
		definitions.forEach((definition) -> entries.add(definition.id() + " " + definition.hash(this.jsonMapper)));
		entries.sort(null);
		String text = String.join(";", entries);
		return new DeclaredSet(ScheduleDefinition.sha1(text).substring(0, 16), text);
	}

	/**
	 * Make a set of definitions the one this instance renews, from now on.
	 * @param set the set
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return the sets renewed within {@code live}, as the script names them
	 */
	String adopt(DeclaredSet set, Duration live, Duration grace) {
		List<Object> reply = call(live, grace, "adopt", set.name(), set.entries());
		return (String) reply.get(1);
	}

	/**
	 * Renew this instance's set of definitions.
	 * @param set the set, as adopted before
	 * @param live how long a declaration counts as current
	 * @param grace how long a declaration not renewed is remembered
	 * @return the sets renewed within {@code live}, or {@code null} when Redis does not
	 * know this instance's set (it has to be declared and adopted again)
	 */
	@Nullable String renew(DeclaredSet set, Duration live, Duration grace) {
		List<Object> reply = call(live, grace, "renew", set.name());
		return "renewed".equals(reply.get(1)) ? (String) reply.get(2) : null;
	}

	private List<Object> call(Duration live, Duration grace, String mode, String... args) {
		List<String> all = new ArrayList<>(ScheduleStore.declarationArgs(live, grace, mode));
		all.add(this.instance);
		all.addAll(List.of(args));
		List<Object> reply = this.scripts
			.run(new ScriptRunner.Call(DelayQueueScript.DECLARE_SCHEDULES, this.keys.declarationKeys(), all));
		this.clock.observed(ScriptRunner.asLong(reply.get(0)));
		return reply;
	}

	/**
	 * A set of declared definitions.
	 *
	 * @param name its name: the first 16 hex digits of the SHA-1 of its entries
	 * @param entries {@code "<id> <hash>"} of each definition, sorted, separated by
	 * {@code ;}
	 */
	record DeclaredSet(String name, String entries) {

	}

}
