package io.github.delayqueue.internal.dashboard;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import io.github.delayqueue.core.DefaultDelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicGroups;
import io.github.delayqueue.core.TopicOverview;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.internal.history.ThroughputHistory;
import io.github.delayqueue.internal.presence.ListenerPresence;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The dashboard's JSON API under {@code <path>/api}, which the page calls and scripts may
 * call too: topics with their counts, due-lag, pause and listeners; pages of a topic's
 * jobs per state, and searches of them ({@link DashboardJobSearch}); one job and its
 * timeline; the throughput history; and the actions (run now, cancel, requeue, purge,
 * pause, resume, and one of them on several jobs: {@link DashboardBulkActions}), which
 * {@link DashboardGuard} lets through only when the dashboard is not read-only and the
 * request is same-origin; with schedules, those of {@link DashboardScheduleApi} too.
 *
 * @author delayqueue contributors
 */
public class DashboardApi {

	/**
	 * The most jobs one page may hold.
	 */
	public static final int MAX_PAGE_SIZE = 500;

	private static final int DEFAULT_PAGE_SIZE = 50;

	private final DelayQueueOperations operations;

	private final DelayQueueAdmin admin;

	private final ListenerPresence presence;

	private final @Nullable ThroughputHistory history;

	private final LongSupplier redisClock;

	private final DashboardAccess access;

	private @Nullable DashboardScheduleApi schedules;

	private DashboardTimeline timeline;

	private final DashboardBulkActions bulk;

	private final DashboardJobSearch search;

	/**
	 * Create the API.
	 * @param operations where jobs are read and changed
	 * @param admin reads across topics
	 * @param presence tells which listeners run where
	 * @param history the throughput history, or {@code null} when it is switched off
	 * @param redisClock reads the Redis clock, in epoch milliseconds, against which
	 * due-lag is measured
	 * @param access who may do and see what
	 */
	public DashboardApi(DelayQueueOperations operations, DelayQueueAdmin admin, ListenerPresence presence,
			@Nullable ThroughputHistory history, LongSupplier redisClock, DashboardAccess access) {
		this.operations = operations;
		// Names the dashboard as who asked in the timelines of the jobs it requeues or
		// cancels.
		this.admin = admin.actingAs(DefaultDelayQueueAdmin.DASHBOARD);
		this.presence = presence;
		this.history = history;
		this.redisClock = redisClock;
		this.access = access;
		this.timeline = new DashboardTimeline(this.admin, (topic) -> false);
		this.bulk = new DashboardBulkActions(this.admin, operations);
		this.search = new DashboardJobSearch(this.admin);
	}

	/**
	 * Show the timelines of the topics that record one; without it, the job view says
	 * that the job's topic records none.
	 * @param recorded tells whether a topic records a timeline
	 */
	public void setTimelineTopics(Predicate<String> recorded) {
		this.timeline = new DashboardTimeline(this.admin, recorded);
	}

	/**
	 * Serve the recurring schedules under {@code <path>/api/schedules}, see
	 * {@link DashboardScheduleApi}.
	 * @param schedules the schedules
	 */
	public void setSchedules(DelayQueueSchedules schedules) {
		this.schedules = new DashboardScheduleApi(schedules);
	}

	/**
	 * Return the routes of the API and of the page under a path.
	 * @param path the dashboard's path
	 * @return the routes
	 * @throws IllegalArgumentException if an allowed origin is not an http or https
	 * origin
	 */
	public RouterFunction<ServerResponse> routes(String path) {
		String api = path + "/api";
		String page = DashboardPage.html(path);
		// The page's links are relative to its parent; with a trailing '/' they would
		// miss.
		URI withoutSlash = URI.create("../" + DashboardPage.lastSegment(path));
		DashboardGuard guard = new DashboardGuard(this.access.readOnly(), this.access.allowedOrigins());
		RouterFunctions.Builder routes = RouterFunctions.route()
			.GET(path, (request) -> ServerResponse.ok().contentType(MediaType.TEXT_HTML).body(page))
			.GET(path + "/", (request) -> ServerResponse.status(HttpStatus.FOUND).location(withoutSlash).build())
			.GET(api + "/settings", (request) -> handle(this::settings, request))
			.GET(api + "/topics", (request) -> handle(this::topics, request))
			.GET(api + "/jobs/{id}", (request) -> handle(this::lookup, request))
			.GET(api + "/history", (request) -> handle(this::history, request))
			.GET(api + "/topics/{topic}", (request) -> handle(this::topic, request))
			.GET(api + "/topics/{topic}/jobs", (request) -> handle(this::jobs, request))
			.GET(api + "/topics/{topic}/jobs/{id}", (request) -> handle(this::job, request))
			.GET(api + "/topics/{topic}/jobs/{id}/timeline", (request) -> handle(this::timeline, request))
			.DELETE(api + "/topics/{topic}/jobs/{id}", action(guard, this::delete))
			.POST(api + "/topics/{topic}/jobs/actions", action(guard, this.bulk::handle))
			.POST(api + "/topics/{topic}/jobs/{id}/run-now", action(guard, this::runNow))
			.POST(api + "/topics/{topic}/jobs/{id}/requeue", action(guard, this::requeue))
			.POST(api + "/topics/{topic}/requeue-dead", action(guard, this::requeueDead))
			.POST(api + "/topics/{topic}/purge-dead", action(guard, this::purgeDead))
			.POST(api + "/topics/{topic}/pause", action(guard, this::pause))
			.POST(api + "/topics/{topic}/resume", action(guard, this::resume));
		if (this.schedules != null) {
			this.schedules.addTo(routes, api, guard, this::shows);
		}
		return DashboardOptions.answering(path, routes.add(DashboardAssets.routes(path)).build()).filter(guard);
	}

	private HandlerFunction<ServerResponse> action(DashboardGuard guard, Handler action) {
		return guard.guard((request) -> handle(action, request));
	}

	private ServerResponse handle(Handler handler, ServerRequest request) {
		try {
			return handler.handle(request);
		}
		catch (InvalidJobException | IllegalArgumentException ex) {
			return error(HttpStatus.BAD_REQUEST, ex.getMessage());
		}
		catch (DashboardJobSearch.HiddenErrorsException ex) {
			return error(HttpStatus.FORBIDDEN, ex.getMessage());
		}
	}

	private ServerResponse settings(ServerRequest request) {
		return ServerResponse.ok()
			.body(new SettingsView(this.access.readOnly(), shows(request), this.history != null, MAX_PAGE_SIZE));
	}

	private ServerResponse lookup(ServerRequest request) {
		String id = request.pathVariable("id");
		Optional<JobInfo> job = this.admin.findInAnyTopic(id);
		if (job.isPresent()) {
			return ServerResponse.ok().body(shown(job.get(), request));
		}
		return error(HttpStatus.NOT_FOUND, "No job '" + id + "' in any topic: it is done, cancelled or was never sent");
	}

	private ServerResponse topics(ServerRequest request) {
		List<ListenerPresence.Instance> instances = this.presence.read();
		long now = redisNow();
		boolean shown = shows(request);
		List<String> topics = List.copyOf(this.admin.topics());
		List<TopicOverview> overviews = this.admin.overview(topics);
		List<TopicRow> rows = new ArrayList<>(topics.size());
		for (int i = 0; i < topics.size(); i++) {
			rows.add(row(topics.get(i), overviews.get(i), instances, now, shown));
		}
		return ServerResponse.ok().body(new TopicsView(Instant.ofEpochMilli(now), rows));
	}

	private ServerResponse topic(ServerRequest request) {
		String topic = request.pathVariable("topic");
		boolean shown = shows(request);
		TopicRow row = row(topic, this.admin.overview(topic), this.presence.read(), redisNow(), shown);
		return ServerResponse.ok().body(row.withGroups(GroupsRow.of(this.admin.groups(topic), shown)));
	}

	private TopicRow row(String topic, TopicOverview overview, List<ListenerPresence.Instance> instances, long now,
			boolean shown) {
		TopicStats stats = overview.stats();
		List<ListenerRow> listeners = ListenerRow.of(topic, instances, shown);
		Instant oldestReady = overview.oldestReadyDueAt();
		Long dueLag = (oldestReady != null) ? Math.max(0, now - oldestReady.toEpochMilli()) : null;
		return new TopicRow(topic, stats.delayed(), stats.ready(), stats.running(), stats.dead(), overview.paused(),
				dueLag, listeners, listeners.stream().noneMatch(ListenerRow::running), null);
	}

	private ServerResponse jobs(ServerRequest request) {
		String topic = request.pathVariable("topic");
		JobState state = state(request.param("state").orElse("delayed"));
		int offset = number(request, "offset", 0);
		int count = number(request, "count", DEFAULT_PAGE_SIZE);
		if (offset < 0 || count < 1 || count > MAX_PAGE_SIZE) {
			throw new IllegalArgumentException("Parameter offset must be 0 or more and count 1 to " + MAX_PAGE_SIZE
					+ ", were " + offset + " and " + count);
		}
		boolean shown = shows(request);
		String idPrefix = request.param("idPrefix").filter((value) -> !value.isEmpty()).orElse(null);
		String error = request.param("error").filter((value) -> !value.isBlank()).orElse(null);
		if (idPrefix != null || error != null) {
			return ServerResponse.ok().body(this.search.search(topic, state, idPrefix, error, count, shown));
		}
		List<JobRow> jobs = this.admin.jobSummaries(topic, state, offset, count)
			.stream()
			.map((job) -> JobRow.of(shown ? job : job.withoutValues()))
			.toList();
		Long kept = (state == JobState.COMPLETED || state == JobState.CANCELLED) ? this.admin.countKept(topic, state)
				: null;
		return ServerResponse.ok()
			.body(new JobsView(topic, state.name().toLowerCase(Locale.ROOT), offset, count, jobs, kept));
	}

	private ServerResponse job(ServerRequest request) {
		Optional<JobInfo> job = this.operations.find(request.pathVariable("topic"), request.pathVariable("id"));
		if (job.isEmpty()) {
			return error(HttpStatus.NOT_FOUND, "No job '" + request.pathVariable("id") + "' in topic '"
					+ request.pathVariable("topic") + "': it is done, cancelled or was never sent");
		}
		return ServerResponse.ok().body(shown(job.get(), request));
	}

	private ServerResponse timeline(ServerRequest request) {
		return ServerResponse.ok()
			.body(this.timeline.read(request.pathVariable("topic"), request.pathVariable("id"), shows(request)));
	}

	private ServerResponse history(ServerRequest request) {
		if (this.history == null) {
			return error(HttpStatus.NOT_FOUND, "The throughput history is off (delayqueue.history.enabled=false)");
		}
		String range = request.param("range").orElse("hour");
		String topic = request.param("topic").orElse(null);
		if (topic != null) {
			JobConstraints.checkTopic(topic);
		}
		List<ThroughputHistory.Bucket> buckets = switch (range) {
			case "five-minutes" -> this.history.lastMinutes(5, topic);
			case "hour" -> this.history.lastHour(topic);
			case "day" -> this.history.lastMinutes(24 * 60, topic);
			case "month" -> this.history.lastDays(30, topic);
			default ->
				throw new IllegalArgumentException("Parameter range must be five-minutes, hour, day or month, was "
						+ DashboardBulkActions.quoted(range));
		};
		return ServerResponse.ok().body(new HistoryView(range, topic, buckets));
	}

	private ServerResponse delete(ServerRequest request) {
		return single(request, DashboardJobAction.DELETE,
				"is neither pending nor dead: it is running, done or unknown");
	}

	private ServerResponse runNow(ServerRequest request) {
		return single(request, DashboardJobAction.RUN_NOW, "is not pending: it is running, dead, done or unknown");
	}

	private ServerResponse requeue(ServerRequest request) {
		return single(request, DashboardJobAction.REQUEUE, "is not dead");
	}

	private ServerResponse single(ServerRequest request, DashboardJobAction action, String notApplied) {
		String topic = request.pathVariable("topic");
		String id = request.pathVariable("id");
		return action.apply(this.admin, this.operations, topic, id) ? ServerResponse.ok().body(Map.of("done", true))
				: error(HttpStatus.CONFLICT, "Job '" + id + "' of topic '" + topic + "' " + notApplied);
	}

	private ServerResponse requeueDead(ServerRequest request) {
		return ServerResponse.ok().body(Map.of("requeued", this.admin.requeueDead(request.pathVariable("topic"))));
	}

	private ServerResponse purgeDead(ServerRequest request) {
		return ServerResponse.ok().body(Map.of("purged", this.admin.purgeDead(request.pathVariable("topic"))));
	}

	private ServerResponse pause(ServerRequest request) {
		this.admin.pause(request.pathVariable("topic"));
		return ServerResponse.ok().body(Map.of("paused", true));
	}

	private ServerResponse resume(ServerRequest request) {
		this.admin.resume(request.pathVariable("topic"));
		return ServerResponse.ok().body(Map.of("paused", false));
	}

	private boolean shows(ServerRequest request) {
		HttpServletRequest servletRequest = request.servletRequest();
		return this.access.showPayloads()
			.isShown(servletRequest.getUserPrincipal(), servletRequest::isUserInRole, this.access.roles());
	}

	private JobInfo shown(JobInfo job, ServerRequest request) {
		return shows(request) ? job : job.withoutValues();
	}

	private long redisNow() {
		return this.redisClock.getAsLong();
	}

	private static JobState state(String state) {
		for (JobState candidate : JobState.values()) {
			if (candidate.name().toLowerCase(Locale.ROOT).equals(state)) {
				return candidate;
			}
		}
		throw new IllegalArgumentException(
				"Parameter state must be delayed, ready, running, dead, completed or cancelled, was '" + state + "'");
	}

	private static int number(ServerRequest request, String name, int otherwise) {
		Optional<String> value = request.param(name);
		if (value.isEmpty()) {
			return otherwise;
		}
		try {
			return Integer.parseInt(value.get());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					"Parameter " + name + " must be a whole number, was '" + value.get() + "'");
		}
	}

	private static ServerResponse error(HttpStatus status, @Nullable String message) {
		return ServerResponse.status(status).body(new ErrorView(status.value(), message));
	}

	@FunctionalInterface
	private interface Handler {

		ServerResponse handle(ServerRequest request);

	}

	/**
	 * What the page may show and offer.
	 *
	 * @param readOnly whether actions are refused
	 * @param showPayloads whether payloads, header values, error messages and host names
	 * are shown to the user who asked
	 * @param history whether the throughput history is kept
	 * @param maxPageSize the most jobs one page may hold
	 */
	public record SettingsView(boolean readOnly, boolean showPayloads, boolean history, int maxPageSize) {

	}

	/**
	 * Every topic at one instant of the Redis clock.
	 *
	 * @param at the Redis clock when read
	 * @param topics the topics
	 */
	public record TopicsView(Instant at, List<TopicRow> topics) {

	}

	/**
	 * One topic of the overview.
	 *
	 * @param topic the topic
	 * @param delayed jobs waiting for their due time
	 * @param ready jobs due and waiting for a listener
	 * @param running jobs being handled
	 * @param dead jobs that failed for good
	 * @param paused whether listeners claim none of its jobs
	 * @param dueLagMillis how late the oldest ready job is, or {@code null} when none is
	 * ready
	 * @param listeners the listeners consuming it on every instance
	 * @param noConsumer whether no running listener consumes it
	 * @param groups the groups whose ready jobs wait for their turn, in the view of one
	 * topic only
	 */
	public record TopicRow(String topic, long delayed, long ready, long running, long dead, boolean paused,
			@Nullable Long dueLagMillis, List<ListenerRow> listeners, boolean noConsumer, @Nullable GroupsRow groups) {

		TopicRow withGroups(GroupsRow groups) {
			return new TopicRow(this.topic, this.delayed, this.ready, this.running, this.dead, this.paused,
					this.dueLagMillis, this.listeners, this.noConsumer, groups);
		}

	}

	/**
	 * The groups of a topic whose ready jobs wait for their turn, each with how it stands
	 * against its own bounds. Group names are header values, hidden like the others.
	 *
	 * @param waiting how many groups have jobs waiting for their turn
	 * @param largest those with the most jobs waiting, most first
	 */
	public record GroupsRow(long waiting, List<TopicGroups.Waiting> largest) {

		static GroupsRow of(TopicGroups groups, boolean shown) {
			return new GroupsRow(groups.groups(), (shown ? groups : groups.withoutNames()).largest());
		}

	}

	/**
	 * A listener of a topic on one instance.
	 *
	 * @param instance the instance
	 * @param host its host
	 * @param id the listener id
	 * @param concurrency its handlers at once
	 * @param running whether it runs
	 */
	public record ListenerRow(String instance, String host, String id, int concurrency, boolean running) {

		static List<ListenerRow> of(String topic, List<ListenerPresence.Instance> instances, boolean shown) {
			List<ListenerRow> rows = new ArrayList<>();
			for (ListenerPresence.Instance listed : instances) {
				ListenerPresence.Instance instance = shown ? listed : listed.withoutHost();
				for (ListenerPresence.Listener listener : instance.listeners()) {
					if (listener.topics().contains(topic)) {
						rows.add(new ListenerRow(instance.id(), instance.host(), listener.id(), listener.concurrency(),
								listener.running()));
					}
				}
			}
			return rows;
		}

	}

	/**
	 * A page of jobs.
	 *
	 * @param topic the topic
	 * @param state the state listed
	 * @param offset how many were skipped
	 * @param count the page size asked for
	 * @param jobs the page, oldest first (kept finished jobs: the most recent first)
	 * @param kept for the states of kept finished jobs, how many the topic keeps in that
	 * state; else {@code null} (the topic's counts tell)
	 */
	public record JobsView(String topic, String state, int offset, int count, List<JobRow> jobs, @Nullable Long kept) {

	}

	/**
	 * One job of a page, without payload and headers.
	 *
	 * @param id the id
	 * @param dueAt its due time
	 * @param createdAt when it was sent
	 * @param attempts deliveries made
	 * @param lastError its last failure, if any
	 * @param diedAt when it died, for a dead job
	 * @param finishedAt when it completed or was cancelled, for a kept finished job
	 */
	public record JobRow(String id, Instant dueAt, Instant createdAt, int attempts, @Nullable String lastError,
			@Nullable Instant diedAt, @Nullable Instant finishedAt) {

		static JobRow of(JobInfo job) {
			return new JobRow(job.id(), job.dueAt(), job.createdAt(), job.attempts(), job.lastError(), job.diedAt(),
					job.finishedAt());
		}

	}

	/**
	 * Throughput per minute of the last 5 minutes, hour or 24 hours, or per day of the
	 * last 30 days.
	 *
	 * @param range {@code five-minutes}, {@code hour}, {@code day} or {@code month}
	 * @param topic the topic, or {@code null} for all
	 * @param buckets the buckets, oldest first
	 */
	public record HistoryView(String range, @Nullable String topic, List<ThroughputHistory.Bucket> buckets) {

	}

	/**
	 * Why a request was refused.
	 *
	 * @param status the HTTP status
	 * @param message the reason
	 */
	public record ErrorView(int status, @Nullable String message) {

	}

}
