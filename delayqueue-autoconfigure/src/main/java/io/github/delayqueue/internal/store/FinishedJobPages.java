package io.github.delayqueue.internal.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads pages of a topic's kept finished jobs (see {@link JobHistoryPolicy}), the most
 * recent first, from all its queues in one pipelined round trip.
 *
 * @author delayqueue contributors
 */
final class FinishedJobPages {

	private final ScriptRunner scripts;

	private final DelayQueueKeys keys;

	private final JobLookup lookup;

	private final JobInfos infos;

	FinishedJobPages(ScriptRunner scripts, DelayQueueKeys keys, JobLookup lookup, JobInfos infos) {
		this.scripts = scripts;
		this.keys = keys;
		this.lookup = lookup;
		this.infos = infos;
	}

	/**
	 * Read a page of kept jobs of one outcome. A partitioned topic's queues are each read
	 * up to the page's end and merged by the time the jobs finished, so the offset and
	 * the count together are held to {@link JobStore#MAX_READ_PAGE}.
	 * @param topic the topic
	 * @param outcome {@link StoredJob.State#COMPLETED} or
	 * {@link StoredJob.State#CANCELLED}
	 * @param offset how many to skip
	 * @param count how many at most
	 * @param heads whether to read only what a row of a page shows, without the jobs'
	 * headers and payloads
	 * @return the page, and how many jobs of the outcome are kept in all
	 */
	Page read(String topic, StoredJob.State outcome, int offset, int count, boolean heads) {
		int end = (int) Math.min((long) offset + count, JobStore.MAX_READ_PAGE);
		List<String> queues = this.lookup.queues(topic);
		List<ScriptRunner.Call> calls = new ArrayList<>(queues.size());
		for (String queue : queues) {
			TopicKeys k = this.keys.lookupTopic(queue);
			String set = (outcome == StoredJob.State.CANCELLED) ? k.cancelled() : k.completed();
			calls.add(new ScriptRunner.Call(DelayQueueScript.READ_FINISHED,
					List.of(set, k.finished(), k.finishedCounts()),
					List.of((outcome == StoredJob.State.CANCELLED) ? "X" : "C",
							(queues.size() == 1) ? String.valueOf(offset) : "0",
							String.valueOf((queues.size() == 1) ? end - offset : end), heads ? "head" : "full")));
		}
		long total = 0;
		List<StoredJob> jobs = new ArrayList<>();
		for (List<Object> reply : this.scripts.runPipelined(calls)) {
			total += ScriptRunner.asLong(reply.get(0));
			for (int i = 1; i + 1 < reply.size(); i += 2) {
				String id = (String) reply.get(i);
				String kept = (String) reply.get(i + 1);
				StoredJob job = heads ? this.infos.finishedSummary(topic, id, kept)
						: this.infos.finished(topic, id, kept);
				if (job.state() == outcome) {
					jobs.add(job);
				}
			}
		}
		if (queues.size() == 1) {
			return new Page(jobs, total);
		}
		jobs.sort(Comparator.comparing(StoredJob::finishedAt, Comparator.nullsLast(Comparator.reverseOrder())));
		return new Page(jobs.subList(Math.min(offset, jobs.size()), Math.min(end, jobs.size())), total);
	}

	/**
	 * A page of kept finished jobs.
	 *
	 * @param jobs the jobs, the most recent first
	 * @param total how many jobs of the outcome are kept in all
	 */
	record Page(List<StoredJob> jobs, long total) {

	}

}
