package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.InvalidScheduleException;
import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import io.github.delayqueue.core.ScheduleInfo;
import io.github.delayqueue.core.ScheduleInfo.TickOutcome;
import io.github.delayqueue.core.ScheduleRun;
import io.github.delayqueue.core.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The dashboard's JSON API of recurring schedules, under {@code <path>/api/schedules}:
 * every schedule with its ticks in words, next fire times, latest runs and missed ticks;
 * and the actions pause, resume and trigger, which the {@link DashboardGuard} lets
 * through as it does every other action.
 *
 * @author delayqueue contributors
 */
final class DashboardScheduleApi {

	private static final int NEXT_FIRE_TIMES = 3;

	private final DelayQueueSchedules schedules;

	DashboardScheduleApi(DelayQueueSchedules schedules) {
		this.schedules = schedules;
	}

	/**
	 * Add the routes of the schedules.
	 * @param routes the dashboard's routes
	 * @param api the path of the API
	 * @param guard decides whether a request may change anything
	 * @param shows whether a request may see payloads
	 */
	void addTo(RouterFunctions.Builder routes, String api, DashboardGuard guard, Predicate<ServerRequest> shows) {
		routes.GET(api + "/schedules", (request) -> handle(() -> list(shows.test(request))))
			.POST(api + "/schedules/{id}/pause", guard.guard(action((id) -> {
				this.schedules.pause(id);
				return Map.of("paused", true);
			})))
			.POST(api + "/schedules/{id}/resume", guard.guard(action((id) -> {
				this.schedules.resume(id);
				return Map.of("paused", false);
			})))
			.POST(api + "/schedules/{id}/trigger",
					guard.guard(action((id) -> Map.of("jobId", this.schedules.trigger(id)))));
	}

	private SchedulesView list(boolean shown) {
		List<ScheduleRow> rows = this.schedules.list(NEXT_FIRE_TIMES)
			.stream()
			.map((schedule) -> ScheduleRow.of(shown ? schedule : schedule.withoutValues()))
			.toList();
		return new SchedulesView(rows);
	}

	private HandlerFunction<ServerResponse> action(Action action) {
		return (request) -> handle(() -> action.apply(request.pathVariable("id")));
	}

	private static ServerResponse handle(Answer answer) {
		try {
			return ServerResponse.ok().body(answer.get());
		}
		catch (InvalidScheduleException ex) {
			HttpStatus status = (ex instanceof UnknownScheduleException) ? HttpStatus.NOT_FOUND
					: HttpStatus.BAD_REQUEST;
			return ServerResponse.status(status).body(new DashboardApi.ErrorView(status.value(), ex.getMessage()));
		}
	}

	@FunctionalInterface
	private interface Action {

		Object apply(String id);

	}

	@FunctionalInterface
	private interface Answer {

		Object get();

	}

	/**
	 * Every schedule.
	 *
	 * @param schedules the schedules, by id
	 */
	record SchedulesView(List<ScheduleRow> schedules) {

	}

	/**
	 * One schedule as the page shows it.
	 *
	 * @param id its id
	 * @param topic its topic
	 * @param cron its cron expression, or {@code null}
	 * @param every its rate, or {@code null}
	 * @param description its ticks in words, or {@code null} when the expression has a
	 * shape not told in words
	 * @param zone its zone
	 * @param misfire its misfire policy
	 * @param overlap its overlap policy
	 * @param enabled whether its definition enables it
	 * @param paused whether it is paused
	 * @param declared whether the configuration declares it
	 * @param nextFireTimes its next ticks
	 * @param lastTick its latest tick, or {@code null}
	 * @param lastOutcome what became of it, or {@code null}
	 * @param missedTicks how many ticks it missed in all
	 * @param recentRuns its latest ticks, newest first
	 * @param payloadJson its payload, or hidden
	 */
	record ScheduleRow(String id, String topic, @Nullable String cron, @Nullable Duration every,
			@Nullable String description, String zone, Misfire misfire, Overlap overlap, boolean enabled,
			boolean paused, boolean declared, List<Instant> nextFireTimes, @Nullable Instant lastTick,
			@Nullable TickOutcome lastOutcome, long missedTicks, List<ScheduleRun> recentRuns, String payloadJson) {

		static ScheduleRow of(ScheduleInfo schedule) {
			String description = (schedule.cron() != null) ? CronDescription.of(schedule.cron())
					: CronDescription.of(schedule.every());
			return new ScheduleRow(schedule.id(), schedule.topic(), schedule.cron(), schedule.every(), description,
					schedule.zone().getId(), schedule.misfire(), schedule.overlap(), schedule.enabled(),
					schedule.paused(), schedule.declared(), schedule.nextFireTimes(), schedule.lastTick(),
					schedule.lastOutcome(), schedule.missedTicks(), schedule.recentRuns(), schedule.payloadJson());
		}

	}

}
