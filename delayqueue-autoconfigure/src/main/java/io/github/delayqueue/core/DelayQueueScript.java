package io.github.delayqueue.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

/**
 * The Lua scripts of the delay queue, one per state transition, each loaded once from the
 * classpath and run by its SHA.
 *
 * @author delayqueue contributors
 */
public enum DelayQueueScript {

	/** New jobs into DELAYED or READY. */
	ENQUEUE("enqueue"),
	/** DELAYED to READY when due. */
	PROMOTE_DUE("promote-due"),
	/** RUNNING to READY or DEAD when the time to run elapsed. */
	REQUEUE_EXPIRED("requeue-expired"),
	/** READY to RUNNING. */
	CLAIM("claim"),
	/** RUNNING to gone. */
	ACK("ack"),
	/** RUNNING to DELAYED after a failure. */
	RETRY("retry"),
	/** RUNNING to DEAD. */
	BURY("bury"),
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
	/** Reads one job. */
	FIND("find"),
	/** Reads the counts of each state. */
	COUNT_STATES("count-states"),
	/** Reads a page of dead jobs. */
	READ_DEAD("read-dead");

	@SuppressWarnings("rawtypes")
	private final RedisScript<List> script;

	DelayQueueScript(String name) {
		// From the text, read once: a script built on a resource checks the resource's
		// last-modified time on every call, which inside a jar opens a URL connection per
		// command and cost about a quarter of a send's CPU.
		this.script = RedisScript.of(text("io/github/delayqueue/core/scripts/" + name + ".lua"), List.class);
	}

	private static String text(String path) {
		try {
			return StreamUtils.copyToString(new ClassPathResource(path).getInputStream(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the script " + path, ex);
		}
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
