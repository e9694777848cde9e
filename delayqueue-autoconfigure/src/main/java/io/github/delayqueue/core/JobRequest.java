package io.github.delayqueue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Everything about a job to send, for when the short {@code send} methods are not enough.
 *
 * <pre class="code">
 * JobRequest request = JobRequest.builder("orders.timeout", new OrderTimeout(orderId))
 *     .id("order-" + orderId)
 *     .delay(Duration.ofMinutes(30))
 *     .group(tenant)                    // taken in turns with other tenants' jobs
 *     .ttr(Duration.ofSeconds(10))
 *     .maxAttempts(3)
 *     .ifPending(IfPending.REPLACE)     // if "order-42" is pending, replace it
 *     .build();
 * delayQueue.send(request);
 * </pre>
 *
 * A request is checked when it is sent: an invalid one is refused with an
 * {@link InvalidJobException} before anything reaches Redis.
 *
 * @author delayqueue contributors
 */
public final class JobRequest {

	/**
	 * The header that holds a job's group, see {@link Builder#group(String)}.
	 */
	public static final String GROUP_HEADER = "delayqueue-group";

	private final String topic;

	private final Object payload;

	private final @Nullable String id;

	private final @Nullable Duration delay;

	private final @Nullable Instant dueAt;

	private final Map<String, String> headers;

	private final @Nullable Duration ttr;

	private final @Nullable Integer maxAttempts;

	private final IfPending ifPending;

	private final @Nullable Duration debounceMaxWait;

	private final @Nullable Boolean afterCommit;

	private JobRequest(Builder builder) {
		this.topic = builder.topic;
		this.payload = builder.payload;
		this.id = builder.id;
		this.delay = builder.delay;
		this.dueAt = builder.dueAt;
		this.headers = builder.headers.isEmpty() ? Map.of()
				: Collections.unmodifiableMap(new LinkedHashMap<>(builder.headers));
		this.ttr = builder.ttr;
		this.maxAttempts = builder.maxAttempts;
		this.ifPending = builder.ifPending;
		this.debounceMaxWait = builder.debounceMaxWait;
		this.afterCommit = builder.afterCommit;
	}

	/**
	 * Start a request for a payload on a topic, due now unless a delay or due time is
	 * set.
	 * @param topic the topic
	 * @param payload the payload, serialized as JSON
	 * @return a builder
	 */
	public static Builder builder(String topic, Object payload) {
		return new Builder(topic, payload);
	}

	/**
	 * Return the topic.
	 * @return the topic
	 */
	public String topic() {
		return this.topic;
	}

	/**
	 * Return the payload.
	 * @return the payload
	 */
	public Object payload() {
		return this.payload;
	}

	/**
	 * Return the id chosen by the caller, or {@code null} to have one generated.
	 * @return the id or {@code null}
	 */
	public @Nullable String id() {
		return this.id;
	}

	/**
	 * Return the delay, or {@code null} when none was set.
	 * @return the delay or {@code null}
	 */
	public @Nullable Duration delay() {
		return this.delay;
	}

	/**
	 * Return the due time, or {@code null} when none was set.
	 * @return the due time or {@code null}
	 */
	public @Nullable Instant dueAt() {
		return this.dueAt;
	}

	/**
	 * Return the headers.
	 * @return the headers, never {@code null}
	 */
	public Map<String, String> headers() {
		return this.headers;
	}

	/**
	 * Return the time to run for this job, or {@code null} for the topic's.
	 * @return the time to run or {@code null}
	 */
	public @Nullable Duration ttr() {
		return this.ttr;
	}

	/**
	 * Return the most deliveries for this job, or {@code null} for the topic's.
	 * @return the maximum attempts or {@code null}
	 */
	public @Nullable Integer maxAttempts() {
		return this.maxAttempts;
	}

	/**
	 * Return what the send does when the topic holds a pending job with this id.
	 * @return the choice, {@link IfPending#REJECT} unless set
	 */
	public IfPending ifPending() {
		return this.ifPending;
	}

	/**
	 * Return the longest a {@link IfPending#REPLACE replacing} send may put the job's due
	 * time after the pending job's first send, or {@code null} for no limit.
	 * @return the wait or {@code null}
	 */
	public @Nullable Duration debounceMaxWait() {
		return this.debounceMaxWait;
	}

	/**
	 * Return the job's group, see {@link Builder#group(String)}.
	 * @return the group, or {@code null} for none
	 */
	public @Nullable String group() {
		return this.headers.get(GROUP_HEADER);
	}

	/**
	 * Return whether a send inside a Spring-managed transaction waits for its commit, or
	 * {@code null} for {@code delayqueue.transaction-aware}.
	 * @return whether the send is deferred until the commit, or {@code null}
	 */
	public @Nullable Boolean afterCommit() {
		return this.afterCommit;
	}

	@Override
	public String toString() {
		return "JobRequest[topic=" + this.topic + ", id=" + this.id + ", delay=" + this.delay + ", dueAt=" + this.dueAt
				+ ((this.ifPending != IfPending.REJECT) ? ", ifPending=" + this.ifPending : "")
				+ ((this.debounceMaxWait != null) ? ", debounceMaxWait=" + this.debounceMaxWait : "") + "]";
	}

	/**
	 * Builds a {@link JobRequest}.
	 */
	public static final class Builder {

		private final String topic;

		private final Object payload;

		private @Nullable String id;

		private @Nullable Duration delay;

		private @Nullable Instant dueAt;

		private final Map<String, String> headers = new LinkedHashMap<>();

		private @Nullable Duration ttr;

		private @Nullable Integer maxAttempts;

		private IfPending ifPending = IfPending.REJECT;

		private @Nullable Duration debounceMaxWait;

		private @Nullable Boolean afterCommit;

		private Builder(String topic, Object payload) {
			this.topic = topic;
			this.payload = payload;
		}

		/**
		 * Use this id instead of a generated one. While the topic holds a pending job
		 * with the same id, sending another is refused with a
		 * {@link DuplicateJobException}, unless {@link #ifPending(IfPending)} says
		 * otherwise.
		 * @param id 1 to 256 characters, not blank
		 * @return this builder
		 */
		public Builder id(String id) {
			this.id = id;
			return this;
		}

		/**
		 * Make the job due after a delay, measured from when Redis receives it.
		 * @param delay zero or more
		 * @return this builder
		 */
		public Builder delay(Duration delay) {
			this.delay = delay;
			return this;
		}

		/**
		 * Make the job due at an instant; an instant in the past means now.
		 * @param dueAt the due time
		 * @return this builder
		 */
		public Builder dueAt(Instant dueAt) {
			this.dueAt = dueAt;
			return this;
		}

		/**
		 * Add a header that travels with the job to the listener. Its name and value
		 * count toward {@code delayqueue.max-payload-size}, with the payload.
		 * @param name the header name, an HTTP token (RFC 9110): 1 or more of
		 * {@code A-Z a-z 0-9} and {@code ! # $ % & ' * + - . ^ _ ` | ~}; another name is
		 * refused when the job is sent
		 * @param value the header value
		 * @return this builder
		 */
		public Builder header(String name, String value) {
			if (name == null) {
				throw new InvalidJobException("A header name must not be null (its value was '" + value + "')");
			}
			if (value == null) {
				throw new InvalidJobException("Header '" + name + "' must have a value, not null");
			}
			this.headers.put(name, value);
			return this;
		}

		/**
		 * Put the job in a group of its topic, such as a tenant or a customer. The ready
		 * jobs of a topic whose jobs have groups are taken in turns, one group after
		 * another, so that a group with a hundred thousand jobs waiting does not hold up
		 * a group with ten. Within a group, jobs are taken in the order they became
		 * ready. The group travels with the job as its {@value JobRequest#GROUP_HEADER}
		 * header (stored apart from the other headers, where no other header can pose as
		 * it), and setting that header sets the group.
		 * @param group 1 to 128 characters of {@code A-Z a-z 0-9 . _ - : @}
		 * @return this builder
		 */
		public Builder group(String group) {
			if (group == null) {
				throw new InvalidJobException("A job's group must not be null; leave it out for none");
			}
			this.headers.put(GROUP_HEADER, group);
			return this;
		}

		/**
		 * Give this job its own time to run, instead of the topic's.
		 * @param ttr at least one millisecond
		 * @return this builder
		 */
		public Builder ttr(Duration ttr) {
			this.ttr = ttr;
			return this;
		}

		/**
		 * Give this job its own maximum number of deliveries, instead of the topic's.
		 * @param maxAttempts one or more
		 * @return this builder
		 */
		public Builder maxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
			return this;
		}

		/**
		 * Choose what the send does when the topic holds a pending job (DELAYED, READY or
		 * RUNNING) with this request's id: refuse it (the default), keep the pending job,
		 * or replace it. Only an id set with {@link #id(String)} can be pending; a
		 * generated one is new.
		 * @param ifPending the choice
		 * @return this builder
		 */
		public Builder ifPending(IfPending ifPending) {
			if (ifPending == null) {
				throw new InvalidJobException("ifPending must not be null; IfPending.REJECT is the default");
			}
			this.ifPending = ifPending;
			return this;
		}

		/**
		 * With {@link IfPending#REPLACE}, the longest the job may wait after its first
		 * send: however often it is replaced, its due time never moves past the first
		 * send of the pending job plus this wait (nor, when that has passed, past now).
		 * The usual debounce: run 10 s after the last change, but no later than a minute
		 * after the first.
		 * @param maxWait zero or more
		 * @return this builder
		 */
		public Builder debounceMaxWait(Duration maxWait) {
			this.debounceMaxWait = maxWait;
			return this;
		}

		/**
		 * Send the job only once the Spring-managed transaction the send is made in has
		 * committed, and not at all if it rolls back; outside a transaction it is sent at
		 * once. The request is checked, and its id fixed, when it is sent, so an invalid
		 * one still fails the transaction; a send that fails after the commit (Redis
		 * unreachable, a duplicate id) is logged at ERROR with its jobs and counted by
		 * the {@code delayqueue.jobs.deferred.failed} meter.
		 * @return this builder
		 * @see #afterCommit(boolean)
		 */
		public Builder afterCommit() {
			return afterCommit(true);
		}

		/**
		 * Choose whether this send waits for the commit of the Spring-managed transaction
		 * it is made in, instead of {@code delayqueue.transaction-aware}: {@code false}
		 * sends it at once, as if no transaction ran.
		 * @param afterCommit {@code true} to send after the commit
		 * @return this builder
		 * @see #afterCommit()
		 */
		public Builder afterCommit(boolean afterCommit) {
			this.afterCommit = afterCommit;
			return this;
		}

		/**
		 * Build the request.
		 * @return the request
		 */
		public JobRequest build() {
			return new JobRequest(this);
		}

	}

}
