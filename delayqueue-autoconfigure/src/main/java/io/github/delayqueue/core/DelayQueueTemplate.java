package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.support.DueTimeListener;
import io.github.delayqueue.internal.support.JobEventListener;
import io.github.delayqueue.internal.support.JobEventListeners;
import io.github.delayqueue.internal.support.JobIdGenerator;
import io.github.delayqueue.observation.DefaultDelayQueueSendObservationConvention;
import io.github.delayqueue.observation.DelayQueueObservation;
import io.github.delayqueue.observation.DelayQueueSendContext;
import io.github.delayqueue.observation.DelayQueueSendObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default {@link DelayQueueOperations}: checks and serializes jobs on the caller's
 * thread, then writes them with one script call per topic, in which Redis decides the due
 * time from its own clock.
 *
 * @author delayqueue contributors
 */
public class DelayQueueTemplate implements DelayQueueOperations {

	/**
	 * Most jobs written in one round trip by {@link #sendAll(Collection)}.
	 */
	public static final int BATCH_SLICE = 1000;

	/**
	 * Most bytes of job data (ids, due times and records, payloads included, in UTF-8)
	 * written in one round trip by {@link #sendAll(Collection)}: a slice of a thousand
	 * large payloads would otherwise be one call of a gigabyte, which Redis takes in one
	 * piece while every other client waits. A job larger than this goes alone.
	 */
	public static final int BATCH_SLICE_BYTES = 4 * 1024 * 1024;

	private static final int ID_CLASH_RETRIES = 3;

	/**
	 * Longest delay and time to run accepted: a thousand years, far inside what a
	 * millisecond count and a Redis score hold exactly.
	 */
	public static final Duration MAX_DELAY = Duration.ofDays(365_250);

	/**
	 * Latest due time accepted.
	 */
	public static final Instant MAX_DUE_AT = Instant.parse("9999-12-31T23:59:59.999Z");

	private final JobStore store;

	private final JobRecordCodec codec;

	private final JsonMapper jsonMapper;

	private final boolean quotesStringsItself;

	/**
	 * How long a topic counts as registered before a send adds it to the topic set again:
	 * a topic that stayed empty and listener-less for its retention leaves the set, and a
	 * later send must bring it back without paying a call on every send.
	 */
	private static final long REGISTRATION_LIFETIME_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final Map<String, Long> topicRegisteredAt = new ConcurrentHashMap<>();

	private long maxPayloadBytes = 1024 * 1024;

	private JobIdGenerator idGenerator = new JobIdGenerator();

	private List<JobPayloadValidator> payloadValidators = List.of();

	private JobEventListener eventListener = JobEventListeners.none();

	private DueTimeListener dueTimeListener = (topic, dueAt) -> {
	};

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private final AfterCommit afterCommit = new AfterCommit(JobEventListeners.none());

	private @Nullable DelayQueueSendObservationConvention sendObservationConvention;

	/**
	 * Create a template.
	 * @param store the Redis side
	 * @param codec encodes job records
	 * @param jsonMapper serializes payloads
	 */
	public DelayQueueTemplate(JobStore store, JobRecordCodec codec, JsonMapper jsonMapper) {
		this.store = store;
		this.codec = codec;
		this.jsonMapper = jsonMapper;
		this.quotesStringsItself = JsonStrings.writesLikeQuote(jsonMapper);
	}

	/**
	 * Set the largest job accepted: its payload as serialized JSON and the names and
	 * values of its headers, together, in UTF-8 bytes.
	 * @param maxPayloadBytes the limit in bytes
	 */
	public void setMaxPayloadBytes(long maxPayloadBytes) {
		this.maxPayloadBytes = maxPayloadBytes;
	}

	/**
	 * Set where generated ids come from.
	 * @param idGenerator the generator
	 */
	public void setIdGenerator(JobIdGenerator idGenerator) {
		this.idGenerator = idGenerator;
	}

	/**
	 * Set checks applied to every payload before it is sent.
	 * @param payloadValidators the checks
	 */
	public void setPayloadValidators(List<JobPayloadValidator> payloadValidators) {
		this.payloadValidators = List.copyOf(payloadValidators);
	}

	/**
	 * Set who hears of sent jobs.
	 * @param eventListener the listener
	 */
	public void setEventListener(JobEventListener eventListener) {
		this.eventListener = eventListener;
		this.afterCommit.setEvents(eventListener);
	}

	/**
	 * Set who hears of new due times, typically the local scheduler.
	 * @param dueTimeListener the listener
	 */
	public void setDueTimeListener(DueTimeListener dueTimeListener) {
		this.dueTimeListener = dueTimeListener;
	}

	/**
	 * Set where sends are observed. Each send then carries the trace context of its
	 * observation in the job's headers, for the handler's observation to continue.
	 * @param observationRegistry the registry, {@link ObservationRegistry#NOOP} to
	 * observe nothing
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Set the names and keys of send observations, replacing
	 * {@link DefaultDelayQueueSendObservationConvention}.
	 * @param convention the convention, or {@code null} for the default
	 */
	public void setSendObservationConvention(@Nullable DelayQueueSendObservationConvention convention) {
		this.sendObservationConvention = convention;
	}

	/**
	 * Set whether sends and cancels made inside a Spring-managed transaction wait for its
	 * commit (and are dropped on rollback) unless a call says otherwise, as
	 * {@code delayqueue.transaction-aware} does. Off by default.
	 * @param transactionAware {@code true} to defer them by default
	 * @see JobRequest.Builder#afterCommit(boolean)
	 * @see #cancelAfterCommit(String, String)
	 */
	public void setTransactionAware(boolean transactionAware) {
		this.afterCommit.setByDefault(transactionAware);
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
	public String send(JobRequest request) {
		if (this.observationRegistry.isNoop()) {
			return sendOne(request, Map.of());
		}
		DelayQueueSendContext context = new DelayQueueSendContext(new LinkedHashMap<>(), topicOf(request),
				(request != null) ? request.id() : null, 1);
		return observed(context, () -> {
			String id = sendOne(request, context.getCarrier());
			context.setJobId(id);
			return id;
		});
	}

	// Around one send or one batch; the propagator writes the trace context into the
	// context's carrier when the observation starts, before the jobs are encoded.
	private <T> T observed(DelayQueueSendContext context, Supplier<T> send) {
		Observation observation = DelayQueueObservation.SEND
			.observation(this.sendObservationConvention, DefaultDelayQueueSendObservationConvention.INSTANCE,
					() -> context, this.observationRegistry)
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			return send.get();
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	private static String topicOf(@Nullable JobRequest request) {
		return (request != null && request.topic() != null) ? request.topic() : DelayQueueObservation.NONE;
	}

	private String sendOne(JobRequest request, Map<String, String> traceHeaders) {
		// Not through sendAll: its grouping by topic, slicing and duplicate bookkeeping
		// took about a tenth of the sending thread's Java time, and one job needs none.
		Prepared job = prepare(request, traceHeaders);
		if (this.afterCommit.defers(request.afterCommit())) {
			this.afterCommit.register("send", Map.of(job.topic(), List.of(job.id())), () -> write(job));
			return job.id();
		}
		return write(job);
	}

	private String write(Prepared job) {
		registerTopic(job.topic());
		for (int attempt = 0;; attempt++) {
			JobStore.EnqueueOutcome outcome = this.store.enqueue(job.topic(), job.encoded());
			if (outcome.duplicates().isEmpty()) {
				if (outcome.kept().isEmpty()) {
					written(job.topic(), 1, outcome.delayed());
				}
				return job.id();
			}
			if (!job.generatedId() || attempt >= ID_CLASH_RETRIES) {
				throw new DuplicateJobException(job.topic(), job.id());
			}
			// A generated id met an existing one: draw a new id and send the job again.
			job.id = this.idGenerator.next();
		}
	}

	@Override
	public List<String> sendAll(Collection<JobRequest> requests) {
		List<Prepared> sent = observedBatch(requests);
		if (sent.stream().anyMatch(Prepared::rejected)) {
			throw refusal(sent);
		}
		return sent.stream().map(Prepared::id).toList();
	}

	@Override
	public List<SendResult> sendAllWithResults(Collection<JobRequest> requests) {
		return observedBatch(requests).stream()
			.map((job) -> new SendResult(job.topic(), job.id(), job.outcome))
			.toList();
	}

	private List<Prepared> observedBatch(Collection<JobRequest> requests) {
		if (this.observationRegistry.isNoop() || requests.isEmpty()) {
			return sendBatch(requests, Map.of());
		}
		Set<String> topics = new HashSet<>();
		requests.forEach((request) -> topics.add(topicOf(request)));
		JobRequest first = requests.iterator().next();
		DelayQueueSendContext context = new DelayQueueSendContext(new LinkedHashMap<>(),
				(topics.size() == 1) ? topics.iterator().next() : "multiple",
				(requests.size() == 1 && first != null) ? first.id() : null, requests.size());
		return observed(context, () -> {
			List<Prepared> sent = sendBatch(requests, context.getCarrier());
			if (sent.size() == 1) {
				context.setJobId(sent.get(0).id());
			}
			return sent;
		});
	}

	// Writes every job and tells each what became of it; refusals are the caller's to
	// report. Jobs whose requests wait for the transaction's commit are written then,
	// and refusals among them are thrown there, to be logged and counted.
	private List<Prepared> sendBatch(Collection<JobRequest> requests, Map<String, String> traceHeaders) {
		List<Prepared> all = new ArrayList<>(requests.size());
		List<Prepared> prepared = new ArrayList<>(requests.size());
		List<Prepared> deferred = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		for (JobRequest request : requests) {
			Prepared job = prepare(request, traceHeaders);
			if (!job.generatedId() && !seen.add(job.topic() + '\u0000' + job.id())) {
				throw new InvalidJobException(
						"Job id '" + job.id() + "' appears twice for topic '" + job.topic() + "' in one batch");
			}
			all.add(job);
			(this.afterCommit.defers(request.afterCommit()) ? deferred : prepared).add(job);
		}
		if (deferred.isEmpty()) {
			return writeBatch(prepared);
		}
		Map<String, List<String>> ids = new LinkedHashMap<>();
		deferred.forEach((job) -> ids.computeIfAbsent(job.topic(), (topic) -> new ArrayList<>()).add(job.id()));
		deferred.forEach((job) -> job.outcome = SendResult.Outcome.DEFERRED);
		this.afterCommit.register("send", ids, () -> {
			if (writeBatch(deferred).stream().anyMatch(Prepared::rejected)) {
				throw refusal(deferred);
			}
		});
		if (!prepared.isEmpty()) {
			writeBatch(prepared);
		}
		return all;
	}

	private List<Prepared> writeBatch(List<Prepared> prepared) {
		registerTopics(prepared);
		for (int from = 0; from < prepared.size();) {
			int to = sliceEnd(prepared, from);
			writeSlice(prepared.subList(from, to));
			from = to;
		}
		return prepared;
	}

	// Where the slice that starts at from ends: at most BATCH_SLICE jobs and
	// BATCH_SLICE_BYTES bytes, and one job at least.
	private static int sliceEnd(List<Prepared> jobs, int from) {
		long bytes = 0;
		int to = from;
		while (to < jobs.size() && to - from < BATCH_SLICE) {
			bytes += jobs.get(to).encodedBytes();
			if (bytes > BATCH_SLICE_BYTES && to > from) {
				break;
			}
			to++;
		}
		return to;
	}

	private static DuplicateJobException refusal(List<Prepared> prepared) {
		Map<String, List<String>> refused = new LinkedHashMap<>();
		// Generated ids of the jobs that were sent are known only here: hand them over.
		List<String> sent = new ArrayList<>();
		for (Prepared job : prepared) {
			if (job.rejected()) {
				refused.computeIfAbsent(job.topic(), (topic) -> new ArrayList<>()).add(job.id());
			}
			else {
				sent.add(job.id());
			}
		}
		String firstTopic = refused.keySet().iterator().next();
		if (prepared.size() == 1) {
			return new DuplicateJobException(firstTopic, refused.get(firstTopic).get(0));
		}
		List<String> refusedIds = refused.values().stream().flatMap(List::stream).toList();
		StringBuilder message = new StringBuilder("Refused job ids already held pending by their topic:");
		refused.forEach((topic, ids) -> message.append(" topic '").append(topic).append("' ").append(ids).append(';'));
		message.append(" every other job of the batch (").append(sent.size()).append(") was sent");
		return new DuplicateJobException(firstTopic, refusedIds, sent, message.toString());
	}

	// Sets each job's outcome.
	private void writeSlice(List<Prepared> slice) {
		Map<String, List<Prepared>> pending = byTopic(slice);
		for (int attempt = 0; !pending.isEmpty(); attempt++) {
			List<Map.Entry<String, List<Prepared>>> groups = new ArrayList<>(pending.entrySet());
			List<JobStore.EnqueueOutcome> outcomes = this.store.enqueue(groups.stream()
				.map((group) -> new JobStore.EnqueueGroup(group.getKey(),
						group.getValue().stream().map(Prepared::encoded).toList()))
				.toList());
			List<Prepared> clashes = new ArrayList<>();
			for (int i = 0; i < outcomes.size(); i++) {
				String topic = groups.get(i).getKey();
				JobStore.EnqueueOutcome outcome = outcomes.get(i);
				if (!outcome.allWritten()) {
					mark(groups.get(i).getValue(), outcome);
				}
				int written = groups.get(i).getValue().size() - outcome.duplicates().size() - outcome.kept().size();
				if (written > 0) {
					written(topic, written, outcome.delayed());
				}
				for (Prepared job : groups.get(i).getValue()) {
					if (job.rejected() && job.generatedId() && attempt < ID_CLASH_RETRIES) {
						// A generated id met an existing one: draw a new id and send the
						// job again.
						job.id = this.idGenerator.next();
						job.outcome = SendResult.Outcome.WRITTEN;
						clashes.add(job);
					}
				}
			}
			pending = byTopic(clashes);
		}
	}

	private static void mark(List<Prepared> jobs, JobStore.EnqueueOutcome outcome) {
		Map<String, SendResult.Outcome> outcomes = new HashMap<>();
		outcome.duplicates().forEach((id) -> outcomes.put(id, SendResult.Outcome.REJECTED));
		outcome.kept().forEach((id) -> outcomes.put(id, SendResult.Outcome.KEPT));
		outcome.replaced().forEach((id) -> outcomes.put(id, SendResult.Outcome.REPLACED));
		for (Prepared job : jobs) {
			job.outcome = outcomes.getOrDefault(job.id(), SendResult.Outcome.WRITTEN);
		}
	}

	private static Map<String, List<Prepared>> byTopic(List<Prepared> jobs) {
		Map<String, List<Prepared>> byTopic = new LinkedHashMap<>();
		for (Prepared job : jobs) {
			byTopic.computeIfAbsent(job.topic(), (topic) -> new ArrayList<>()).add(job);
		}
		return byTopic;
	}

	// Only the queues written are woken: one partition each, not the whole topic.
	private void written(String topic, int count, List<JobStore.QueueDue> delayed) {
		this.eventListener.jobsSent(topic, count);
		for (int i = 0; i < delayed.size(); i++) {
			JobStore.QueueDue due = delayed.get(i);
			this.dueTimeListener.jobScheduledInQueue(due.queue(), due.dueAtMillis());
		}
	}

	private void registerTopics(List<Prepared> jobs) {
		for (Prepared job : jobs) {
			registerTopic(job.topic());
		}
	}

	private void registerTopic(String topic) {
		long now = System.nanoTime();
		Long registeredAt = this.topicRegisteredAt.get(topic);
		if (registeredAt == null || now - registeredAt > REGISTRATION_LIFETIME_NANOS) {
			this.store.registerTopic(topic);
			this.topicRegisteredAt.put(topic, now);
		}
	}

	private Prepared prepare(JobRequest request, Map<String, String> traceHeaders) {
		if (request == null) {
			throw new InvalidJobException("A job request must not be null");
		}
		String topic = JobConstraints.checkTopic(request.topic());
		boolean generated = request.id() == null;
		String id = generated ? this.idGenerator.next() : JobConstraints.checkId(topic, request.id());
		String due = due(topic, id, request, generated);
		JobConstraints.checkTtr(topic, id, request.ttr());
		if (request.maxAttempts() != null && request.maxAttempts() < 1) {
			throw new InvalidJobException("Max attempts of job '" + id + "' for topic '" + topic
					+ "' must be at least 1, was " + request.maxAttempts());
		}
		JobConstraints.checkHeaders(topic, id, request.headers());
		String group = request.group();
		if (group != null) {
			JobConstraints.checkGroup(topic, id, group);
		}
		String payloadJson = serialize(topic, request.payload());
		JobConstraints.checkSize(topic, id, payloadJson, request.headers(), this.maxPayloadBytes);
		String tail = this.codec.encodeTail(request.ttr(), request.maxAttempts(),
				withTraceContext(request.headers(), traceHeaders), payloadJson);
		return new Prepared(topic, id, generated, due, tail);
	}

	// The send's trace context replaces one a job carried already (a job sent again from
	// a handler, with the headers it came with): it is stored once, and it is the
	// current.
	private static Map<String, String> withTraceContext(Map<String, String> headers, Map<String, String> traceHeaders) {
		if (traceHeaders.isEmpty()) {
			return headers;
		}
		Map<String, String> merged = new LinkedHashMap<>(headers);
		merged.putAll(traceHeaders);
		return merged;
	}

	// The generated id is marked, which lets the enqueue script recognise a call of ours
	// that a client sent again after a reconnect, rather than take it for a clash.
	private String due(String topic, String id, JobRequest request, boolean generatedId) {
		if (request.delay() != null && request.dueAt() != null) {
			throw new InvalidJobException("Job for topic '" + topic + "' sets both a delay and a due time; choose one");
		}
		char ifPending = IfPendingCodes.code(request);
		long maxWait = IfPendingCodes.maxWaitMillis(topic, request);
		if (request.delay() != null) {
			JobConstraints.checkDelay(topic, id, request.delay());
			return JobStore.EncodedJob.due(true, request.delay().toMillis(), generatedId, ifPending, maxWait);
		}
		if (request.dueAt() != null) {
			if (request.dueAt().isAfter(MAX_DUE_AT)) {
				throw new InvalidJobException("Due time of job for topic '" + topic + "' must be at most " + MAX_DUE_AT
						+ ", was " + request.dueAt());
			}
			// Any instant in the past is due now, however far back (Instant.MIN
			// included).
			long dueAtMillis = request.dueAt().isBefore(Instant.EPOCH) ? 0 : request.dueAt().toEpochMilli();
			return JobStore.EncodedJob.due(false, dueAtMillis, generatedId, ifPending, maxWait);
		}
		return JobStore.EncodedJob.due(true, 0, generatedId, ifPending, maxWait);
	}

	private String serialize(String topic, Object payload) {
		if (payload == null) {
			throw new InvalidJobException("Payload of job for topic '" + topic + "' must not be null");
		}
		for (JobPayloadValidator validator : this.payloadValidators) {
			validator.validate(topic, payload);
		}
		try {
			return (this.quotesStringsItself && payload instanceof String text) ? JsonStrings.quote(text)
					: this.jsonMapper.writeValueAsString(payload);
		}
		catch (JacksonException ex) {
			throw new InvalidJobException("Payload of type " + payload.getClass().getName() + " for topic '" + topic
					+ "' cannot be serialized to JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	@Override
	public boolean cancel(String topic, String jobId) {
		JobConstraints.checkTopic(topic);
		JobConstraints.checkId(topic, jobId);
		if (!this.afterCommit.defers(null)) {
			return this.store.cancel(topic, jobId);
		}
		cancelOnCommit(topic, jobId);
		return StoredJobs.info(this.store.find(topic, jobId))
			.map(JobInfo::state)
			.filter((state) -> state == JobState.DELAYED || state == JobState.READY)
			.isPresent();
	}

	@Override
	public void cancelAfterCommit(String topic, String jobId) {
		JobConstraints.checkTopic(topic);
		JobConstraints.checkId(topic, jobId);
		if (this.afterCommit.defers(true)) {
			cancelOnCommit(topic, jobId);
		}
		else {
			this.store.cancel(topic, jobId);
		}
	}

	private void cancelOnCommit(String topic, String jobId) {
		this.afterCommit.register("cancel", Map.of(topic, List.of(jobId)), () -> this.store.cancel(topic, jobId));
	}

	@Override
	public boolean reschedule(String topic, String jobId, Duration delay) {
		JobConstraints.checkTopic(topic);
		JobConstraints.checkId(topic, jobId);
		JobConstraints.checkDelay(topic, jobId, delay);
		JobStore.QueueDue due = this.store.reschedule(topic, jobId, delay);
		if (due != null && !delay.isZero()) {
			this.dueTimeListener.jobScheduledInQueue(due.queue(), due.dueAtMillis());
		}
		return due != null;
	}

	@Override
	public Optional<JobInfo> find(String topic, String jobId) {
		return StoredJobs.info(this.store.find(JobConstraints.checkTopic(topic), JobConstraints.checkId(topic, jobId)));
	}

	private static final class Prepared {

		private final String topic;

		private String id;

		private final boolean generatedId;

		private final String due;

		private final String tail;

		private SendResult.Outcome outcome = SendResult.Outcome.WRITTEN;

		Prepared(String topic, String id, boolean generatedId, String due, String tail) {
			this.topic = topic;
			this.id = id;
			this.generatedId = generatedId;
			this.due = due;
			this.tail = tail;
		}

		String topic() {
			return this.topic;
		}

		String id() {
			return this.id;
		}

		boolean generatedId() {
			return this.generatedId;
		}

		boolean rejected() {
			return this.outcome == SendResult.Outcome.REJECTED;
		}

		long encodedBytes() {
			return utf8Length(this.id) + utf8Length(this.due) + utf8Length(this.tail);
		}

		// Counted rather than encoded: the encoding happens once, when the slice is sent.
		private static long utf8Length(String value) {
			long bytes = value.length();
			for (int i = 0; i < value.length(); i++) {
				char c = value.charAt(i);
				if (c >= 0x80) {
					// Two bytes up to U+07FF, three above; a surrogate pair is four in
					// all.
					bytes += (c < 0x800 || Character.isSurrogate(c)) ? 1 : 2;
				}
			}
			return bytes;
		}

		JobStore.EncodedJob encoded() {
			return new JobStore.EncodedJob(this.id, this.due, this.tail);
		}

	}

}
