package io.github.delayqueue.internal.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.JobConstraints;
import io.github.delayqueue.core.JobInfo;
import io.github.delayqueue.core.JobState;
import io.github.delayqueue.core.TopicStats;
import org.jspecify.annotations.Nullable;

/**
 * Finds a topic's jobs in one state by the start of their id and by words of their last
 * error, among the newest {@value #SEARCHED} of that state only: a page types as the user
 * does, and a search must cost Redis the same for a topic of a million jobs as for one of
 * a thousand.
 *
 * @author delayqueue contributors
 */
final class DashboardJobSearch {

	/**
	 * The most jobs one search looks at: the newest of the state.
	 */
	static final int SEARCHED = 1000;

	/**
	 * The longest error text searched for.
	 */
	static final int MAX_ERROR_TEXT = 200;

	private static final int CHUNK = 250;

	private final DelayQueueAdmin admin;

	DashboardJobSearch(DelayQueueAdmin admin) {
		this.admin = admin;
	}

	/**
	 * Search the newest jobs of a state.
	 * @param topic the topic
	 * @param state the state
	 * @param idPrefix how the ids start, or {@code null} for any
	 * @param error text the last error holds, ignoring case, or {@code null} for any
	 * @param count the most matches returned: the newest
	 * @param shown whether error messages are shown to the user who asks; when not,
	 * searching them is refused, since which jobs match would tell what they hold
	 * @return the matches, in the order of the state's pages
	 * @throws IllegalArgumentException if a filter is too long
	 * @throws HiddenErrorsException if errors are searched but not shown
	 */
	SearchView search(String topic, JobState state, @Nullable String idPrefix, @Nullable String error, int count,
			boolean shown) {
		if (idPrefix != null && idPrefix.length() > JobConstraints.MAX_ID_LENGTH) {
			throw new IllegalArgumentException("Parameter idPrefix is " + idPrefix.length()
					+ " characters long; ids have at most " + JobConstraints.MAX_ID_LENGTH);
		}
		if (error != null && error.length() > MAX_ERROR_TEXT) {
			throw new IllegalArgumentException("Parameter error is " + error.length() + " characters long; at most "
					+ MAX_ERROR_TEXT + " are searched");
		}
		if (error != null && !shown) {
			throw new HiddenErrorsException();
		}
		boolean newestFirst = state == JobState.COMPLETED || state == JobState.CANCELLED;
		int start = newestFirst ? 0 : (int) Math.max(0, total(this.admin.stats(topic), state) - SEARCHED);
		List<JobInfo> matches = new ArrayList<>();
		int searched = 0;
		while (searched < SEARCHED) {
			List<JobInfo> chunk = this.admin.jobSummaries(topic, state, start + searched,
					Math.min(CHUNK, SEARCHED - searched));
			searched += chunk.size();
			chunk.stream().filter((job) -> matches(job, idPrefix, error)).forEach(matches::add);
			if (chunk.size() < CHUNK) {
				break;
			}
		}
		int matched = matches.size();
		List<JobInfo> kept = newestFirst ? matches.subList(0, Math.min(count, matched))
				: matches.subList(Math.max(0, matched - count), matched);
		return new SearchView(topic, state.name().toLowerCase(Locale.ROOT), idPrefix, error, SEARCHED, searched,
				matched,
				kept.stream().map((job) -> DashboardApi.JobRow.of(shown ? job : job.withoutValues())).toList());
	}

	private static boolean matches(JobInfo job, @Nullable String idPrefix, @Nullable String error) {
		if (idPrefix != null && !job.id().startsWith(idPrefix)) {
			return false;
		}
		return error == null || (job.lastError() != null
				&& job.lastError().toLowerCase(Locale.ROOT).contains(error.toLowerCase(Locale.ROOT)));
	}

	private static long total(TopicStats stats, JobState state) {
		return switch (state) {
			case DELAYED -> stats.delayed();
			case READY -> stats.ready();
			case RUNNING -> stats.running();
			default -> stats.dead();
		};
	}

	/**
	 * Thrown when the user who searches errors may not read them.
	 */
	static final class HiddenErrorsException extends RuntimeException {

		HiddenErrorsException() {
			super("Error messages are hidden from you (delayqueue.dashboard.show-payloads), so they cannot be "
					+ "searched either; search by id prefix");
		}

	}

	/**
	 * What a search found.
	 *
	 * @param topic the topic
	 * @param state the state searched
	 * @param idPrefix how the ids start, or {@code null} for any
	 * @param error text the last errors hold, or {@code null} for any
	 * @param limit the most jobs a search looks at: the newest of the state
	 * @param searched how many jobs it looked at
	 * @param matched how many of them match
	 * @param jobs the newest matches, at most the count asked for, in the order of the
	 * state's pages
	 */
	record SearchView(String topic, String state, @Nullable String idPrefix, @Nullable String error, int limit,
			int searched, int matched, List<DashboardApi.JobRow> jobs) {

	}

}
