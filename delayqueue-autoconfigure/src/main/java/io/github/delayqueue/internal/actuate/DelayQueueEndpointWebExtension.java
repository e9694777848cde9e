package io.github.delayqueue.internal.actuate;

import java.util.List;
import java.util.function.Supplier;

import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.InvalidScheduleException;
import io.github.delayqueue.core.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The web side of the {@link DelayQueueEndpoint}: answers a request the endpoint refuses
 * (bad topic or job id, unknown action, unknown dead job) with a JSON body that says why,
 * where Actuator alone would answer a bare 400. With schedules, the path segment
 * {@value ScheduleEndpointOperations#SEGMENT} in the place of a topic means them, see
 * {@link ScheduleEndpointOperations}. Every write operation asks the
 * {@link EndpointWriteGuard} first, after Actuator has routed the request to it.
 *
 * @author delayqueue contributors
 */
@EndpointWebExtension(endpoint = DelayQueueEndpoint.class)
public class DelayQueueEndpointWebExtension {

	private static final int STATUS_FORBIDDEN = 403;

	private final DelayQueueEndpoint endpoint;

	private @Nullable ScheduleEndpointOperations schedules;

	private EndpointWriteGuard writeGuard = new EndpointWriteGuard(List.of());

	/**
	 * Create the extension.
	 * @param endpoint the endpoint that does the work
	 */
	public DelayQueueEndpointWebExtension(DelayQueueEndpoint endpoint) {
		this.endpoint = endpoint;
	}

	/**
	 * Decide with this guard which writes may change anything; by default, one without
	 * allowed origins.
	 * @param writeGuard the guard
	 */
	public void setWriteGuard(EndpointWriteGuard writeGuard) {
		this.writeGuard = writeGuard;
	}

	/**
	 * Serve the recurring schedules under {@code /actuator/delayqueue/schedules}.
	 * @param schedules the schedules' operations
	 */
	public void setSchedules(ScheduleEndpointOperations schedules) {
		this.schedules = schedules;
	}

	/**
	 * See {@link DelayQueueEndpoint#topic}, or the schedules.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param state the state of the jobs to list, or {@code null} for the counts
	 * @param offset how many jobs to skip
	 * @param count how many jobs to list at most
	 * @return the counts and listeners, or the page of jobs, or why not
	 */
	@ReadOperation
	public WebEndpointResponse<Object> topic(SecurityContext securityContext, @Selector String topic,
			@Nullable String state, @Nullable Integer offset, @Nullable Integer count) {
		ScheduleEndpointOperations schedules = schedules(topic);
		if (schedules != null && state == null && offset == null && count == null) {
			return answer(() -> schedules.list(securityContext));
		}
		return answer(() -> this.endpoint.topic(securityContext, topic, state, offset, count));
	}

	/**
	 * See {@link DelayQueueEndpoint#job}, or one schedule.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or 404 with a message
	 */
	@ReadOperation
	public WebEndpointResponse<Object> job(SecurityContext securityContext, @Selector String topic,
			@Selector String jobId) {
		ScheduleEndpointOperations schedules = schedules(topic);
		if (schedules != null) {
			return answer(() -> schedules.schedule(securityContext, jobId));
		}
		return answer(() -> {
			Object job = this.endpoint.job(securityContext, topic, jobId);
			return (job != null) ? job : new ErrorDescriptor(WebEndpointResponse.STATUS_NOT_FOUND,
					"No job '" + jobId + "' in topic '" + topic + "': it is done, cancelled or was never sent");
		});
	}

	/**
	 * See {@link DelayQueueEndpoint#timeline}.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param jobId the job id
	 * @param part {@value DelayQueueEndpoint#TIMELINE}
	 * @return the steps, or why not
	 */
	@ReadOperation
	public WebEndpointResponse<Object> timeline(SecurityContext securityContext, @Selector String topic,
			@Selector String jobId, @Selector String part) {
		return answer(() -> this.endpoint.timeline(securityContext, topic, jobId, part));
	}

	/**
	 * See {@link DelayQueueEndpoint#cancel}, or delete a schedule saved at run time.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param jobId the job id
	 * @return whether a pending job was removed, or why not
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> cancel(SecurityContext securityContext, @Selector String topic,
			@Selector String jobId) {
		WebEndpointResponse<Object> refused = refused(securityContext);
		if (refused != null) {
			return refused;
		}
		ScheduleEndpointOperations schedules = schedules(topic);
		if (schedules != null) {
			return answer(() -> schedules.delete(jobId));
		}
		return answer(() -> this.endpoint.cancel(topic, jobId));
	}

	/**
	 * Pause, resume or trigger a schedule; or, for a topic, see
	 * {@link DelayQueueEndpoint#action} on one job.
	 * @param securityContext who is asking
	 * @param topic the topic, or {@value ScheduleEndpointOperations#SEGMENT}
	 * @param jobId the job id, or the schedule's id
	 * @param action the action
	 * @return what was done, or why not
	 */
	@WriteOperation
	public WebEndpointResponse<Object> jobAction(SecurityContext securityContext, @Selector String topic,
			@Selector String jobId, @Nullable String action) {
		WebEndpointResponse<Object> refused = refused(securityContext);
		if (refused != null) {
			return refused;
		}
		ScheduleEndpointOperations schedules = schedules(topic);
		if (schedules != null) {
			return answer(() -> schedules.action(jobId, action));
		}
		return answer(() -> this.endpoint.action(topic, action, jobId));
	}

	private @Nullable ScheduleEndpointOperations schedules(String topic) {
		return ScheduleEndpointOperations.SEGMENT.equals(topic) ? this.schedules : null;
	}

	/**
	 * See {@link DelayQueueEndpoint#action}.
	 * @param securityContext who is asking
	 * @param topic the topic
	 * @param action the action
	 * @param jobId the one dead job to act on, or {@code null} for all
	 * @return how many jobs were requeued or purged, or why not
	 */
	@WriteOperation
	public WebEndpointResponse<Object> action(SecurityContext securityContext, @Selector String topic,
			@Nullable String action, @Nullable String jobId) {
		WebEndpointResponse<Object> refused = refused(securityContext);
		if (refused != null) {
			return refused;
		}
		return answer(() -> this.endpoint.action(topic, action, jobId));
	}

	private @Nullable WebEndpointResponse<Object> refused(SecurityContext securityContext) {
		String refusal = this.writeGuard.refusal(securityContext);
		return (refusal != null)
				? new WebEndpointResponse<>(new ErrorDescriptor(STATUS_FORBIDDEN, refusal), STATUS_FORBIDDEN) : null;
	}

	private static WebEndpointResponse<Object> answer(Supplier<Object> operation) {
		Object body;
		try {
			body = operation.get();
		}
		catch (DelayQueueEndpoint.NoSuchDeadJobException | UnknownScheduleException ex) {
			body = new ErrorDescriptor(WebEndpointResponse.STATUS_NOT_FOUND, ex.getMessage());
		}
		catch (InvalidEndpointRequestException | InvalidJobException | InvalidScheduleException ex) {
			// Our own refusals of bad input: topic names, ids, actions, paging,
			// schedules.
			body = new ErrorDescriptor(WebEndpointResponse.STATUS_BAD_REQUEST, ex.getMessage());
		}
		int status = (body instanceof ErrorDescriptor error) ? error.status() : WebEndpointResponse.STATUS_OK;
		return new WebEndpointResponse<>(body, status);
	}

	/**
	 * Why a request was refused.
	 *
	 * @param status the HTTP status
	 * @param message what was wrong, naming the culprit
	 */
	public record ErrorDescriptor(int status, @Nullable String message) implements OperationResponseBody {

	}

}
