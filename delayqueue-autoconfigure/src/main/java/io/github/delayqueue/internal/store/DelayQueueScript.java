package io.github.delayqueue.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the delay queue, one per state transition (the sweep runs both
 * transitions the clock drives), each loaded once from the classpath with the Lua
 * libraries its first line names ({@code scripts/lib/*.lua}, see
 * {@link LuaScriptAssembler}), and run by its SHA.
 *
 * @author delayqueue contributors
 */
public enum DelayQueueScript implements LuaScript {

	/** New jobs into DELAYED or READY. */
	ENQUEUE("enqueue"),
	/**
	 * DELAYED to READY when due, and RUNNING to READY or DEAD when the time to run
	 * elapsed: the two transitions the clock drives, in one call per topic.
	 */
	SWEEP("sweep"),
	/** READY to RUNNING. */
	CLAIM("claim"),
	/** RUNNING to gone. */
	ACK("ack"),
	/** RUNNING to DELAYED after a failure. */
	RETRY("retry"),
	/** RUNNING to DEAD. */
	BURY("bury"),
	/** RUNNING for longer: a later time-to-run deadline. */
	EXTEND_TTR("extend-ttr"),
	/** RUNNING to READY, uncounted. */
	RELEASE("release"),
	/** Claiming to READY. */
	REQUEUE_ORPHANS("requeue-orphans"),
	/** DELAYED or READY to gone. */
	CANCEL("cancel"),
	/** DELAYED or READY to DELAYED at a new time. */
	RESCHEDULE("reschedule"),
	/** DEAD to READY. */
	REQUEUE_DEAD("requeue-dead"),
	/** DEAD to gone. */
	PURGE_DEAD("purge-dead"),
	/**
	 * Kept finished jobs beyond their retention or count cap to gone, a bounded number.
	 */
	TRIM_KEPT("trim-kept"),
	/** Ids of the timeline's list set whose list or job is gone, out of it. */
	TRIM_TIMELINE_LISTS("trim-timeline-lists"),
	/** Reads one job. */
	FIND("find"),
	/** Reads the counts of each state. */
	COUNT_STATES("count-states"),
	/** Reads a page of jobs in one state. */
	READ_PAGE("read-page"),
	/** Reads a page of kept finished jobs. */
	READ_FINISHED("read-finished"),
	/** Reads one job's timeline. */
	READ_TIMELINE("read-timeline"),
	/** Reads the groups whose jobs wait for their turn in a queue. */
	READ_GROUPS("read-groups"),
	/** Reads how groups of a topic stand against their own bounds. */
	READ_GROUP_BOUNDS("read-group-bounds"),
	/** Sets or removes a queue's pause mark. */
	PAUSE("pause"),
	/** A drained partition gets its retirement mark. */
	RETIRE_PARTITION("retire-partition"),
	/** Retired partitions leave their topic's partition set. */
	FORGET_PARTITIONS("forget-partitions"),
	/** A retired partition a sender writes to goes back into the partition set. */
	REVIVE_PARTITION("revive-partition"),
	/** A revived partition loses its retirement mark. */
	UNRETIRE_PARTITION("unretire-partition"),
	/** Decides the due ticks of recurring schedules of one topic. */
	PRODUCE_TICK("produce-tick"),
	/** A schedule's definition takes effect in its topic. */
	ACTIVATE_SCHEDULE("activate-schedule"),
	/** Pauses or resumes a schedule. */
	PAUSE_SCHEDULE("pause-schedule"),
	/** Puts a job of a schedule into its topic now. */
	TRIGGER_SCHEDULE("trigger-schedule"),
	/** Removes a schedule from its topic. */
	REMOVE_SCHEDULE("remove-schedule"),
	/** Decides which declared definition of each schedule holds. */
	DECLARE_SCHEDULES("declare-schedules"),
	/** Reads schedules' definitions, states and latest ticks. */
	READ_SCHEDULES("read-schedules"),
	/** Claimed deliveries of a topic with limits are admitted under them, or not. */
	ACQUIRE_PERMITS("acquire-permits"),
	/** Deliveries give back their global concurrency permits. */
	RELEASE_PERMITS("release-permits"),
	/** A whole topic is held back for a while, on every instance. */
	HOLD_TOPIC("hold-topic"),
	/** A delivery whose time to run was extended keeps its global permit as long. */
	EXTEND_PERMIT("extend-permit");

	/**
	 * Where the scripts live; their libraries are in its {@code lib} folder.
	 */
	public static final String LOCATION = "io/github/delayqueue/internal/store/scripts/";

	@SuppressWarnings("rawtypes")
	private final RedisScript<List> script;

	private final byte[] body;

	private final byte[] sha1;

	private final String sha1Hex;

	DelayQueueScript(String name) {
		this.script = RedisScript.of(Assembly.SCRIPTS.assemble(name), List.class);
		this.body = this.script.getScriptAsString().getBytes(StandardCharsets.UTF_8);
		this.sha1Hex = this.script.getSha1();
		this.sha1 = this.sha1Hex.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Holds the assembler apart, as an enum's constants are built before its static
	 * fields.
	 */
	private static final class Assembly {

		static final LuaScriptAssembler SCRIPTS = new LuaScriptAssembler(LOCATION);

	}

	/**
	 * Return the script's text as UTF-8, for {@code EVAL} and {@code SCRIPT LOAD}.
	 * @return the text
	 */
	@Override
	public byte[] body() {
		return this.body;
	}

	/**
	 * Return the script's SHA-1 as UTF-8 hex, for {@code EVALSHA}.
	 * @return the SHA-1
	 */
	@Override
	public byte[] sha1() {
		return this.sha1;
	}

	/**
	 * Return the script's SHA-1 in hex, for {@code EVALSHA} on a native connection.
	 * @return the SHA-1
	 */
	@Override
	public String sha1Hex() {
		return this.sha1Hex;
	}

	/**
	 * Return the script.
	 * @return the script
	 */
	@SuppressWarnings("rawtypes")
	public RedisScript<List> script() {
		return this.script;
	}

}
