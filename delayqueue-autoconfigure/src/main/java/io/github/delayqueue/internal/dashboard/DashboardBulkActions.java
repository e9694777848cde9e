package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * One action on several jobs of a topic at once, as the page's selection asks for it:
 * {@code POST <path>/api/topics/{topic}/jobs/actions} with {@code {"action": "requeue" |
 * "delete" | "run-now", "ids": [...]}}. The whole request is checked before any job
 * changes, and each job is then acted on as the action on that job alone would, with a
 * result per id: {@code done}, {@code not-found}, or {@code wrong-state} with the state
 * the job is in.
 *
 * @author delayqueue contributors
 */
final class DashboardBulkActions {

	/**
	 * The most ids one request may name.
	 */
	static final int MAX_IDS = 1000;

	// Every id at its longest, each character escaped in JSON, with room for the rest.
	private static final int MAX_BODY_BYTES = MAX_IDS * (JobConstraints.MAX_ID_LENGTH * 6 + 4) + 1024;

	private static final int QUOTED_LENGTH = 64;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final DelayQueueAdmin admin;

	private final DelayQueueOperations operations;

	DashboardBulkActions(DelayQueueAdmin admin, DelayQueueOperations operations) {
		this.admin = admin;
		this.operations = operations;
	}

	/**
	 * Check the request, then act on each job it names.
	 * @param request the request
	 * @return the result per id, in the order asked
	 * @throws IllegalArgumentException naming what is wrong with the request, before any
	 * job changes
	 */
	ServerResponse handle(ServerRequest request) {
		String topic = JobConstraints.checkTopic(request.pathVariable("topic"));
		MediaType type = request.headers().contentType().orElse(null);
		if (type == null || !MediaType.APPLICATION_JSON.isCompatibleWith(type)) {
			throw new IllegalArgumentException("The body must be JSON (Content-Type: application/json), was "
					+ ((type != null) ? quoted(type.toString()) : "without a Content-Type"));
		}
		JsonNode body = read(request);
		for (String field : body.propertyNames()) {
			if (!field.equals("action") && !field.equals("ids")) {
				throw new IllegalArgumentException(
						"Unknown field " + quoted(field) + "; the body holds action and ids");
			}
		}
		DashboardJobAction action = DashboardJobAction
			.named(body.path("action").isString() ? body.path("action").asString() : null);
		List<String> ids = ids(topic, body.path("ids"));
		List<Result> results = new ArrayList<>(ids.size());
		int done = 0;
		for (String id : ids) {
			Result result = act(action, topic, id);
			results.add(result);
			done += result.result().equals(Result.DONE) ? 1 : 0;
		}
		return ServerResponse.ok().body(new BulkView(topic, action.apiName(), done, results));
	}

	private Result act(DashboardJobAction action, String topic, String id) {
		if (action.apply(this.admin, this.operations, topic, id)) {
			return new Result(id, Result.DONE, null);
		}
		Optional<JobInfo> job = this.operations.find(topic, id);
		return job.isPresent() ? new Result(id, Result.WRONG_STATE, job.get().state().name().toLowerCase(Locale.ROOT))
				: new Result(id, Result.NOT_FOUND, null);
	}

	private static JsonNode read(ServerRequest request) {
		byte[] bytes;
		try (InputStream in = request.servletRequest().getInputStream()) {
			bytes = in.readNBytes(MAX_BODY_BYTES + 1);
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("The body could not be read: " + ex.getMessage());
		}
		if (bytes.length > MAX_BODY_BYTES) {
			throw new IllegalArgumentException(
					"The body is larger than " + MAX_BODY_BYTES + " bytes; name at most " + MAX_IDS + " ids");
		}
		JsonNode body;
		try {
			body = JSON.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("The body is not JSON: " + ex.getOriginalMessage());
		}
		if (body == null || !body.isObject()) {
			throw new IllegalArgumentException("The body must be a JSON object with action and ids");
		}
		return body;
	}

	private static List<String> ids(String topic, JsonNode ids) {
		if (!ids.isArray() || ids.isEmpty()) {
			throw new IllegalArgumentException("Field ids must be a list of 1 to " + MAX_IDS + " job ids");
		}
		if (ids.size() > MAX_IDS) {
			throw new IllegalArgumentException(
					"Field ids names " + ids.size() + " jobs; at most " + MAX_IDS + " go in one request");
		}
		List<String> checked = new ArrayList<>(ids.size());
		Set<String> seen = new HashSet<>();
		for (JsonNode id : ids) {
			if (!id.isString()) {
				throw new IllegalArgumentException("Field ids holds " + quoted(id.toString()) + ", not a job id");
			}
			JobConstraints.checkId(topic, id.asString());
			if (!seen.add(id.asString())) {
				throw new IllegalArgumentException("Field ids names job " + quoted(id.asString()) + " twice");
			}
			checked.add(id.asString());
		}
		return checked;
	}

	static String quoted(String value) {
		String cut = (value.length() > QUOTED_LENGTH) ? value.substring(0, QUOTED_LENGTH) + "..." : value;
		return "'" + cut + "'";
	}

	/**
	 * What one request did.
	 *
	 * @param topic the topic
	 * @param action the action
	 * @param done how many jobs it acted on
	 * @param results the result per id, in the order asked
	 */
	record BulkView(String topic, String action, int done, List<Result> results) {

	}

	/**
	 * What the action did to one job.
	 *
	 * @param id the job id
	 * @param result {@value #DONE}, {@value #NOT_FOUND} or {@value #WRONG_STATE}
	 * @param state for {@value #WRONG_STATE}, the state the job is in, else {@code null}
	 */
	record Result(String id, String result, @Nullable String state) {

		static final String DONE = "done";

		static final String NOT_FOUND = "not-found";

		static final String WRONG_STATE = "wrong-state";

	}

}
