package io.github.delayqueue.internal.schedule;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.Objects;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.scheduling.support.CronExpression;

/**
 * A checked schedule: where its jobs go, when it ticks, what its jobs carry and how it
 * treats missed and overlapping ticks. Two definitions with the same
 * {@link #hash(JsonMapper) hash} are the same schedule; the hash is what instances
 * compare to find that a schedule changed. Built by {@link ScheduleChecks}; stored in
 * Redis as {@link #toJson(JsonMapper) JSON}.
 *
 * @author delayqueue contributors
 */
public final class ScheduleDefinition {

	private final String id;

	private final String topic;

	private final @Nullable String cron;

	private final @Nullable Duration every;

	private final ZoneId zone;

	private final String payloadJson;

	private final Misfire misfire;

	private final int catchUpLimit;

	private final Overlap overlap;

	private final boolean enabled;

	private final TickSeries ticks;

	private @Nullable String hash;

	ScheduleDefinition(String id, String topic, @Nullable String cron, @Nullable Duration every, ZoneId zone,
			String payloadJson, Misfire misfire, int catchUpLimit, Overlap overlap, boolean enabled) {
		this.id = id;
		this.topic = topic;
		this.cron = cron;
		this.every = every;
		this.zone = zone;
		this.payloadJson = payloadJson;
		this.misfire = misfire;
		this.catchUpLimit = catchUpLimit;
		this.overlap = overlap;
		this.enabled = enabled;
		this.ticks = (cron != null) ? new CronTicks(CronExpression.parse(cron), zone)
				: new FixedRateTicks(Objects.requireNonNull(every).toMillis());
	}

	/**
	 * Read a definition stored by {@link #toJson(JsonMapper)}.
	 * @param id the schedule's id
	 * @param json the stored JSON
	 * @param jsonMapper reads it
	 * @return the definition
	 * @throws IllegalArgumentException if the JSON is no stored definition
	 */
	public static ScheduleDefinition fromJson(String id, String json, JsonMapper jsonMapper) {
		try {
			JsonNode node = jsonMapper.readTree(json);
			JsonNode cron = node.get("cron");
			JsonNode every = node.get("every");
			return new ScheduleDefinition(id, node.get("topic").asString(),
					(cron != null && !cron.isNull()) ? cron.asString() : null,
					(every != null && !every.isNull()) ? Duration.ofMillis(every.asLong()) : null,
					ZoneId.of(node.get("zone").asString()), jsonMapper.writeValueAsString(node.get("payload")),
					Misfire.valueOf(node.get("misfire").asString()), node.get("catchUpLimit").asInt(),
					Overlap.valueOf(node.get("overlap").asString()), node.get("enabled").asBoolean());
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("Unreadable definition of schedule '" + id + "': " + ex.getMessage(),
					ex);
		}
	}

	/**
	 * Write the definition as JSON, its fields always in the same order, so that equal
	 * definitions write equal text.
	 * @param jsonMapper writes it
	 * @return the JSON
	 */
	public String toJson(JsonMapper jsonMapper) {
		ObjectNode node = jsonMapper.createObjectNode();
		node.put("topic", this.topic);
		if (this.cron != null) {
			node.put("cron", this.cron);
		}
		if (this.every != null) {
			node.put("every", this.every.toMillis());
		}
		node.put("zone", this.zone.getId());
		node.set("payload", jsonMapper.readTree(this.payloadJson));
		node.put("misfire", this.misfire.name());
		node.put("catchUpLimit", this.catchUpLimit);
		node.put("overlap", this.overlap.name());
		node.put("enabled", this.enabled);
		return jsonMapper.writeValueAsString(node);
	}

	/**
	 * Return the hash that tells this definition apart from other definitions of its id:
	 * the first 16 hex digits of the SHA-1 of its JSON.
	 * @param jsonMapper writes the JSON
	 * @return the hash
	 */
	public String hash(JsonMapper jsonMapper) {
		String hash = this.hash;
		if (hash == null) {
			hash = sha1(toJson(jsonMapper)).substring(0, 16);
			this.hash = hash;
		}
		return hash;
	}

	static String sha1(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-1", ex);
		}
	}

	/**
	 * Return the schedule's id.
	 * @return the id
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Return the topic its jobs go to.
	 * @return the topic
	 */
	public String topic() {
		return this.topic;
	}

	@Nullable String cron() {
		return this.cron;
	}

	@Nullable Duration every() {
		return this.every;
	}

	ZoneId zone() {
		return this.zone;
	}

	String payloadJson() {
		return this.payloadJson;
	}

	Misfire misfire() {
		return this.misfire;
	}

	int catchUpLimit() {
		return this.catchUpLimit;
	}

	Overlap overlap() {
		return this.overlap;
	}

	boolean enabled() {
		return this.enabled;
	}

	TickSeries ticks() {
		return this.ticks;
	}

}
