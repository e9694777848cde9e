package io.github.delayqueue.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.core.JobState;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link DelayQueueOperations} for plain unit tests of code that sends jobs, without
 * Spring and without Redis: it records every send and answers from that record. It has no
 * queue behaviour at all: jobs are never delivered, never fall due, never fail and never
 * die, and the topics' configuration is unknown. A job is pending from its send until it
 * is cancelled here. Use {@link AutoConfigureDelayQueue} and {@link DelayQueueTester} to
 * test what the queue does with jobs.
 *
 * <pre class="code">
 * RecordingDelayQueueOperations delayQueue = new RecordingDelayQueueOperations();
 * OrderService orders = new OrderService(delayQueue);
 * orders.place("book");
 * assertThat(delayQueue.sent().payloads("orders.timeout", OrderTimeout.class)).hasSize(1);
 * </pre>
 *
 * What it checks as the real one does: topic names, job ids, header names, that a delay
 * (of a send or a reschedule) is between zero and {@link DelayQueueTemplate#MAX_DELAY},
 * that a job id chosen by the sender is not pending already in the topic, and that the
 * payload can be written as JSON by a mapper like the starter's (Jackson's defaults and
 * the modules on the class path).
 *
 * @author delayqueue contributors
 */
public class RecordingDelayQueueOperations implements DelayQueueOperations {

	private final SentJobs sent = new SentJobs();

	private final Map<String, Pending> pending = new ConcurrentHashMap<>();

	private final AtomicLong ids = new AtomicLong();

	private final Clock clock;

	private final JsonMapper jsonMapper;

	/**
	 * Create a recording on the system clock, which dates the jobs that
	 * {@link #find(String, String)} returns.
	 */
	public RecordingDelayQueueOperations() {
		this(Clock.systemUTC(), JsonMapper.builder().findAndAddModules().build());
	}

	/**
	 * Create a recording.
	 * @param clock dates the jobs that {@link #find(String, String)} returns
	 * @param jsonMapper writes payloads as JSON, as the application's
	 * {@code delayQueueJsonMapper} does
	 */
	public RecordingDelayQueueOperations(Clock clock, JsonMapper jsonMapper) {
		this.clock = clock;
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Return the jobs sent so far, cancelled ones included.
	 * @return the jobs
	 */
	public SentJobs sent() {
		return this.sent;
	}

	/**
	 * Return the jobs sent to a topic so far, cancelled ones included.
	 * @param topic the topic
	 * @return the jobs, oldest first
	 */
	public List<SentJob> sent(String topic) {
		return this.sent.to(topic);
	}

	@Override
	public String send(String topic, Object payload) {
		return send(JobRequest.builder(topic, payload).build());
	}

	@Override
	public String send(String topic, Object payload, Duration delay) {
		return send(JobRequest.builder(topic, payload).delay(delay).build());
	}

	@Override
	public String sendAt(String topic, Object payload, Instant dueAt) {
		return send(JobRequest.builder(topic, payload).dueAt(dueAt).build());
	}

	@Override
	public synchronized String send(JobRequest request) {
		Checked job = check(request);
		record(request, job);
		return job.id();
	}

	@Override
	public synchronized List<String> sendAll(Collection<JobRequest> requests) {
		List<Checked> checked = new ArrayList<>(requests.size());
		for (JobRequest request : requests) {
			checked.add(check(request));
		}
		List<JobRequest> batch = List.copyOf(requests);
		for (int i = 0; i < batch.size(); i++) {
			record(batch.get(i), checked.get(i));
		}
		return checked.stream().map(Checked::id).toList();
	}

	private Checked check(JobRequest request) {
		String id = checkId(request);
		try {
			return new Checked(id, this.jsonMapper.writeValueAsString(request.payload()));
		}
		catch (JacksonException ex) {
			throw new InvalidJobException("Payload of type " + request.payload().getClass().getName() + " for topic '"
					+ request.topic() + "' cannot be serialized to JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	private String checkId(JobRequest request) {
		if (request == null) {
			throw new InvalidJobException("A job request must not be null");
		}
		String topic = JobConstraints.checkTopic(request.topic());
		if (request.payload() == null) {
			throw new InvalidJobException("Payload of job for topic '" + topic + "' must not be null");
		}
		// A refused send draws no id: the ids of the jobs recorded stay in sequence.
		String id = (request.id() != null) ? JobConstraints.checkId(topic, request.id())
				: "recorded-" + (this.ids.get() + 1);
		if (request.delay() != null) {
			JobConstraints.checkDelay(topic, id, request.delay());
		}
		JobConstraints.checkHeaders(topic, id, request.headers());
		if (request.id() == null) {
			return "recorded-" + this.ids.incrementAndGet();
		}
		if (this.pending.containsKey(key(topic, id))) {
			throw new DuplicateJobException(topic, id);
		}
		return id;
	}

	private void record(JobRequest request, Checked job) {
		Instant now = this.clock.instant();
		Instant dueAt = (request.dueAt() != null) ? request.dueAt()
				: now.plus((request.delay() != null) ? request.delay() : Duration.ZERO);
		this.pending.put(key(request.topic(), job.id()), new Pending(request, job.payloadJson(), now, dueAt));
		this.sent.add(SendRecordingInterceptor.of(request, job.id()));
	}

	/**
	 * Cancel a job sent here and not cancelled yet.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was pending here
	 */
	@Override
	public boolean cancel(String topic, String jobId) {
		return this.pending.remove(key(topic, jobId)) != null;
	}

	/**
	 * Cancel a job sent here and not cancelled yet, at once, as {@link #cancel} does: a
	 * recording knows no transaction to wait for.
	 * @param topic the topic
	 * @param jobId the job id
	 */
	@Override
	public void cancelAfterCommit(String topic, String jobId) {
		cancel(topic, jobId);
	}

	/**
	 * Give a job sent here and not cancelled yet a new due time.
	 * @param topic the topic
	 * @param jobId the job id
	 * @param delay the new delay from now
	 * @return {@code true} if the job was pending here
	 */
	@Override
	public boolean reschedule(String topic, String jobId, Duration delay) {
		JobConstraints.checkDelay(topic, jobId, delay);
		Pending job = this.pending.computeIfPresent(key(topic, jobId), (key, current) -> new Pending(current.request(),
				current.payloadJson(), current.sentAt(), this.clock.instant().plus(delay)));
		return job != null;
	}

	/**
	 * Look up a job sent here and not cancelled yet: DELAYED until its due time by this
	 * recording's clock, READY after it, never delivered.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the job, or empty if it was not sent here or was cancelled
	 */
	@Override
	public Optional<JobInfo> find(String topic, String jobId) {
		Pending job = this.pending.get(key(topic, jobId));
		if (job == null) {
			return Optional.empty();
		}
		JobState state = job.dueAt().isAfter(this.clock.instant()) ? JobState.DELAYED : JobState.READY;
		return Optional.of(new JobInfo(jobId, topic, state, 0, job.dueAt(), job.sentAt(), null, job.request().headers(),
				job.payloadJson()));
	}

	private static String key(String topic, String id) {
		return topic + '\u0000' + id;
	}

	private record Checked(String id, String payloadJson) {

	}

	private record Pending(JobRequest request, String payloadJson, Instant sentAt, Instant dueAt) {

	}

}
