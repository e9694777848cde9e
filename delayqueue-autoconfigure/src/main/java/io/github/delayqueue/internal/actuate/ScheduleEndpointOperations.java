package io.github.delayqueue.internal.actuate;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * The recurring schedules in the {@code delayqueue} endpoint, under
 * {@code /actuator/delayqueue/schedules}, a path segment that means the schedules: no
 * topic may be named {@code schedules} ({@code JobConstraints#RESERVED_TOPIC}):
 * <ul>
 * <li>{@code GET /actuator/delayqueue/schedules}: every schedule with its next fire
 * times, last tick and outcome, missed ticks and latest runs</li>
 * <li>{@code GET /actuator/delayqueue/schedules/{id}}: one schedule, 404 when absent</li>
 * <li>{@code POST /actuator/delayqueue/schedules/{id}} with {@code {"action": "pause"}},
 * {@code "resume"} or {@code "trigger"}: writes, under the endpoint's access rules</li>
 * <li>{@code DELETE /actuator/delayqueue/schedules/{id}}: deletes a schedule saved at run
 * time</li>
 * </ul>
 * Payloads show only as the endpoint's {@link Show} setting allows.
 *
 * @author delayqueue contributors
 */
public class ScheduleEndpointOperations {

	/**
	 * The path segment of the schedules.
	 */
	public static final String SEGMENT = "schedules";

	private static final int NEXT_FIRE_TIMES = 5;

	private final DelayQueueSchedules schedules;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * Create the operations.
	 * @param schedules the schedules
	 * @param showValues when payloads are shown
	 * @param roles the roles that may see them when {@code showValues} is
	 * {@link Show#WHEN_AUTHORIZED}
	 */
	public ScheduleEndpointOperations(DelayQueueSchedules schedules, Show showValues, Set<String> roles) {
		this.schedules = schedules;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * List every schedule.
	 * @param securityContext who is asking
	 * @return the schedules
	 */
	public SchedulesDescriptor list(SecurityContext securityContext) {
		boolean shown = this.showValues.isShown(securityContext, this.roles);
		return new SchedulesDescriptor(this.schedules.list(NEXT_FIRE_TIMES)
			.stream()
			.map((schedule) -> shown ? schedule : schedule.withoutValues())
			.toList());
	}

	/**
	 * Show one schedule.
	 * @param securityContext who is asking
	 * @param id the schedule's id
	 * @return the schedule
	 * @throws UnknownScheduleException if no schedule has the id
	 */
	public ScheduleInfo schedule(SecurityContext securityContext, String id) {
		ScheduleInfo schedule = this.schedules.find(id, NEXT_FIRE_TIMES)
			.orElseThrow(() -> new UnknownScheduleException(id));
		return this.showValues.isShown(securityContext, this.roles) ? schedule : schedule.withoutValues();
	}

	/**
	 * Pause, resume or trigger a schedule.
	 * @param id the schedule's id
	 * @param action {@code pause}, {@code resume} or {@code trigger}
	 * @return what was done
	 * @throws UnknownScheduleException if no schedule has the id
	 * @throws InvalidEndpointRequestException if the action is missing or unknown
	 */
	public ScheduleActionDescriptor action(String id, @Nullable String action) {
		String done = (action != null) ? action.toLowerCase(Locale.ROOT) : "";
		switch (done) {
			case "pause" -> this.schedules.pause(id);
			case "resume" -> this.schedules.resume(id);
			case "trigger" -> {
				return new ScheduleActionDescriptor(id, done, this.schedules.trigger(id));
			}
			default -> throw new InvalidEndpointRequestException(
					((action != null) ? "Unknown action '" + action + "'" : "No action given")
							+ "; send {\"action\": \"pause\"}, {\"action\": \"resume\"} or {\"action\": \"trigger\"}",
					"Unknown schedule action");
		}
		return new ScheduleActionDescriptor(id, done, null);
	}

	/**
	 * Delete a schedule saved at run time.
	 * @param id the schedule's id
	 * @return whether it existed
	 */
	public ScheduleDeletedDescriptor delete(String id) {
		return new ScheduleDeletedDescriptor(this.schedules.delete(id));
	}

	/**
	 * Every schedule.
	 *
	 * @param schedules the schedules, by id
	 */
	public record SchedulesDescriptor(List<ScheduleInfo> schedules) implements OperationResponseBody {

	}

	/**
	 * What an action on a schedule did.
	 *
	 * @param id the schedule's id
	 * @param action the action
	 * @param jobId the job a trigger put into the topic, or {@code null}
	 */
	public record ScheduleActionDescriptor(String id, String action,
			@Nullable String jobId) implements OperationResponseBody {

	}

	/**
	 * The outcome of a delete.
	 *
	 * @param deleted whether the schedule existed
	 */
	public record ScheduleDeletedDescriptor(boolean deleted) implements OperationResponseBody {

	}

}
