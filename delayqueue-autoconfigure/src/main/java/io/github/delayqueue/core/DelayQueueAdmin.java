package io.github.delayqueue.core;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What operators and tools do with the queues, apart from what an application does with
 * its own jobs ({@link DelayQueueOperations}), as {@code KafkaAdmin} stands beside
 * {@code KafkaTemplate}: topics and their counts, pages of jobs in any state, dead jobs
 * (requeue, purge), and pausing a topic. The starter configures a
 * {@link DefaultDelayQueueAdmin} as a bean; the Actuator endpoint and the dashboard use
 * it.
 *
 * <pre class="code">
 * for (String topic : admin.topics()) {
 *     TopicStats stats = admin.stats(topic);
 *     if (stats.dead() &gt; 0) {
 *         alert(topic, admin.deadJobs(topic, 0, 10));
 *     }
 * }
 * admin.pause("partner.calls");      // listeners on every instance stop claiming
 * </pre>
 *
 * Reads and writes take a fixed number of round trips to Redis whatever the size of a
 * topic; bulk changes go in batches of a thousand jobs per script call, so no call blocks
 * Redis for long. Redis being unreachable surfaces as a
 * {@link org.springframework.dao.DataAccessException}.
 *
 * @author delayqueue contributors
 */
public interface DelayQueueAdmin {

	/**
	 * Return admin operations on the same queues that record who asked as the given
	 * actor: the detail of the {@link JobEvent.Type#REQUEUED REQUEUED} and
	 * {@link JobEvent.Type#CANCELLED CANCELLED} steps of job timelines, such as
	 * {@code "endpoint"} or {@code "dashboard"}. This admin is unchanged.
	 * {@link DefaultDelayQueueAdmin} records the actor.
	 * <p>
	 * The default checks the actor and returns this admin itself, which records no actor:
	 * what it changes is recorded as it records it otherwise. An implementation that
	 * delegates to another admin should override it, so that the actor reaches the admin
	 * that records it.
	 * @param actor who asks: 1 to 64 characters, not blank
	 * @return the admin operations acting as {@code actor}; by the default, this admin
	 * @throws IllegalArgumentException if the actor is blank or longer than 64 characters
	 */
	default DelayQueueAdmin actingAs(String actor) {
		if (actor == null || actor.isBlank() || actor.length() > 64) {
			throw new IllegalArgumentException("Actor must be 1 to 64 characters and not blank: '" + actor + "'");
		}
		return this;
	}

	/**
	 * Cancel a {@link JobState#DELAYED DELAYED} or {@link JobState#READY READY} job at
	 * once, as an operator's tool does, recording this admin's actor (see
	 * {@link #actingAs(String)}) in the job's timeline. Unlike
	 * {@link DelayQueueOperations#cancel(String, String)}, which an application uses for
	 * its own jobs, it never waits for a surrounding transaction to commit.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was delayed or ready and is now gone
	 * @throws InvalidJobException if the topic or id is invalid
	 */
	boolean cancel(String topic, String jobId);

	/**
	 * The most groups {@link #groups(String)} returns.
	 */
	int MAX_GROUPS_SHOWN = 100;

	/**
	 * Read the groups of a topic whose READY jobs wait for their turn: once a topic's
	 * jobs have groups, consumers take its ready jobs from the groups in turns. Jobs that
	 * became ready a moment ago and are not yet in a group's line count as READY, not
	 * here.
	 * @param topic the topic
	 * @return how many groups wait, and the ones with the most jobs waiting
	 */
	TopicGroups groups(String topic);

	/**
	 * Count the jobs of a topic in each state.
	 * @param topic the topic
	 * @return the counts
	 */
	TopicStats stats(String topic);

	/**
	 * Return every topic that has or had jobs, or that a listener consumes (a listener
	 * announces its topics when it starts, so that they show in metrics and the endpoint
	 * before their first job).
	 * @return the topic names
	 */
	Set<String> topics();

	/**
	 * Page through the dead jobs of a topic, oldest death first.
	 * @param topic the topic
	 * @param offset how many to skip
	 * @param count how many to return at most
	 * @return the dead jobs
	 */
	List<JobInfo> deadJobs(String topic, int offset, int count);

	/**
	 * Put every dead job of a topic back to {@link JobState#READY}, with attempts reset.
	 * @param topic the topic
	 * @return how many jobs were requeued
	 */
	long requeueDead(String topic);

	/**
	 * Put one dead job back to {@link JobState#READY}, with attempts reset.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was dead and is now ready
	 */
	boolean requeueDead(String topic, String jobId);

	/**
	 * Delete every dead job of a topic.
	 * @param topic the topic
	 * @return how many jobs were deleted
	 */
	long purgeDead(String topic);

	/**
	 * Delete one dead job.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return {@code true} if the job was dead and is now deleted
	 */
	boolean purgeDead(String topic, String jobId);

	/**
	 * Read a page of a topic's jobs in one state, oldest first: DELAYED by due time,
	 * READY in the order listeners will take them, RUNNING by time-to-run deadline, DEAD
	 * by time of death. A page costs Redis time in proportion to its size, never a scan
	 * of the whole state; a READY page after cancelled or rescheduled READY jobs whose
	 * entries still wait in the ready list also walks the entries before it, in bounded
	 * steps that never hold Redis for long. A large page is read in several steps, so
	 * pages are not one snapshot and a job may move between two of them. The pages of a
	 * topic with several partitions run through its partitions one after the other, each
	 * in that order. Jobs a topic's {@code completed-retention} keeps,
	 * {@link JobState#COMPLETED COMPLETED} and {@link JobState#CANCELLED CANCELLED}, come
	 * the most recently finished first; their offset and count together read at most
	 * 1,000 of them.
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many jobs to skip
	 * @param count how many to read at most
	 * @return the jobs, oldest first
	 */
	List<JobInfo> jobs(String topic, JobState state, int offset, int count);

	/**
	 * Read a page of a topic's jobs in one state as
	 * {@link #jobs(String, JobState, int, int)} does, without their headers and payloads:
	 * what a list of jobs shows (id, times, attempts, last error), at the same cost in
	 * Redis whether the jobs carry a few bytes or a megabyte each. Use it for lists;
	 * {@link DelayQueueOperations#find} reads one job whole. The default reads the whole
	 * jobs and drops what a summary leaves out. <pre class="code">
	 * admin.jobSummaries("orders.timeout", JobState.DEAD, 0, 50)
	 *     .forEach((job) -&gt; log.info("{} died at {}: {}", job.id(), job.diedAt(), job.lastError()));
	 * </pre>
	 * @param topic the topic
	 * @param state the state
	 * @param offset how many jobs to skip
	 * @param count how many to read at most
	 * @return the jobs, oldest first, each with no headers and an empty
	 * {@link JobInfo#payloadJson() payloadJson}
	 */
	default List<JobInfo> jobSummaries(String topic, JobState state, int offset, int count) {
		return jobs(topic, state, offset, count).stream().map(JobInfo::summary).toList();
	}

	/**
	 * Count the finished jobs a topic keeps for its {@code completed-retention}.
	 * <p>
	 * The default counts the jobs of one page of
	 * {@link #jobs(String, JobState, int, int)}, which reads at most 1,000 kept jobs: it
	 * is exact below 1,000 and throws {@link UnsupportedOperationException} when the page
	 * is full, as it cannot tell how many more there are. {@link DefaultDelayQueueAdmin}
	 * counts any number.
	 * @param topic the topic
	 * @param outcome {@link JobState#COMPLETED} or {@link JobState#CANCELLED}
	 * @return how many jobs of that outcome are kept, 0 when the topic keeps none
	 * @throws InvalidJobException if the topic name is invalid or the state is another
	 * @throws UnsupportedOperationException from the default when 1,000 jobs or more are
	 * kept
	 */
	default long countKept(String topic, JobState outcome) {
		if (outcome != JobState.COMPLETED && outcome != JobState.CANCELLED) {
			throw new InvalidJobException("Only COMPLETED and CANCELLED jobs are kept, not " + outcome);
		}
		// The most kept jobs one page reads.
		int page = 1000;
		int counted = jobs(topic, outcome, 0, page).size();
		if (counted >= page) {
			throw new UnsupportedOperationException(
					getClass().getName() + " counts fewer than " + page + " kept " + outcome + " jobs only, and topic '"
							+ topic + "' keeps " + page + " or more; override countKept to count them all");
		}
		return counted;
	}

	/**
	 * Look a job up by id in every topic, in a fixed number of round trips to Redis
	 * however many topics and partitions there are: first in the partition each topic
	 * maps the id to, one short script per topic, then, only when none holds it, in the
	 * topics' other partitions (where a job sent before a change of their number may be).
	 * @param jobId the job id
	 * @return the job of the first topic, in name order, that holds the id where it maps
	 * (else in another partition), or empty when no topic does
	 * @throws InvalidJobException if the id is blank, too long or holds a path separator
	 */
	Optional<JobInfo> findInAnyTopic(String jobId);

	/**
	 * Read the counts per state, the pause and the longest waiting ready job of several
	 * topics, in one round trip to Redis.
	 * @param topics the topics, for example {@link #topics()}
	 * @return each topic's overview, in the order of the topics given
	 * @throws InvalidJobException if a topic name is invalid
	 */
	List<TopicOverview> overview(Collection<String> topics);

	/**
	 * Read the overview of one topic in one round trip, see
	 * {@link #overview(Collection)}.
	 * @param topic the topic
	 * @return its overview
	 * @throws InvalidJobException if the topic name is invalid
	 */
	TopicOverview overview(String topic);

	/**
	 * Pause a topic: listeners on every instance stop claiming its jobs within about a
	 * second, while its jobs keep falling due and may still be sent, cancelled and
	 * rescheduled. Handlers already running finish. The pause lasts until
	 * {@link #resume(String)}, across restarts of the application.
	 * @param topic the topic
	 */
	void pause(String topic);

	/**
	 * Resume a paused topic: listeners claim its jobs again within about a second, the
	 * ones that fell due meanwhile first. Resuming a topic that is not paused does
	 * nothing.
	 * @param topic the topic
	 */
	void resume(String topic);

	/**
	 * Tell whether a topic is paused.
	 * @param topic the topic
	 * @return {@code true} if paused
	 */
	boolean isPaused(String topic);

	/**
	 * Return the timeline of a job: each step it went through, oldest first, as recorded
	 * by the topic's {@code timeline: true} (the most recent steps up to the topic's
	 * cap). A job's timeline lasts as long as the job, and after it finishes as long as
	 * the topic keeps finished jobs.
	 * @param topic the topic
	 * @param jobId the job id
	 * @return the steps, oldest first; empty if the topic records no timeline or the job
	 * is unknown
	 */
	List<JobEvent> timeline(String topic, String jobId);

}
