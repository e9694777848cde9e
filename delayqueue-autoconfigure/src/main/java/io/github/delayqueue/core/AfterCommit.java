package io.github.delayqueue.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.delayqueue.internal.support.JobEventListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Holds sends and cancels made inside a Spring-managed transaction until it commits, and
 * drops them when it rolls back. What fails after the commit cannot reach the caller any
 * more: it is logged at ERROR with the topic and the job ids, and counted.
 *
 * @author delayqueue contributors
 */
final class AfterCommit {

	private static final Log logger = LogFactory.getLog(AfterCommit.class);

	private volatile boolean byDefault;

	private volatile JobEventListener events;

	AfterCommit(JobEventListener events) {
		this.events = events;
	}

	void setByDefault(boolean byDefault) {
		this.byDefault = byDefault;
	}

	void setEvents(JobEventListener events) {
		this.events = events;
	}

	/**
	 * Tell whether an operation waits for the current transaction's commit.
	 * @param asked what the call asked for, or {@code null} for the default
	 * @return {@code true} inside an active transaction, if asked or by default
	 */
	boolean defers(@Nullable Boolean asked) {
		boolean wanted = (asked != null) ? asked : this.byDefault;
		return wanted && TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive();
	}

	/**
	 * Run an operation once the current transaction has committed, or never if it rolls
	 * back.
	 * @param operation {@code send} or {@code cancel}, for the log and the meter
	 * @param jobs the ids of the jobs concerned, by topic
	 * @param action the operation
	 */
	void register(String operation, Map<String, List<String>> jobs, Runnable action) {
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

			@Override
			public void afterCommit() {
				run(operation, jobs, action);
			}

			@Override
			public void afterCompletion(int status) {
				if (status != STATUS_COMMITTED && logger.isDebugEnabled()) {
					logger.debug("Transaction did not commit; dropped the " + operation + " of jobs " + jobs);
				}
			}

		});
	}

	private void run(String operation, Map<String, List<String>> jobs, Runnable action) {
		try {
			action.run();
		}
		catch (RuntimeException ex) {
			Map<String, List<String>> failed = failed(jobs, ex);
			logger.error("The " + operation + " of jobs " + failed + ", deferred until the transaction committed, "
					+ "failed after the commit; it was not made: " + ex, ex);
			failed.forEach((topic, ids) -> this.events.deferredOperationFailed(topic, operation, ids.size()));
		}
	}

	// A batch refused for duplicates names the jobs it sent anyway; the rest failed.
	private static Map<String, List<String>> failed(Map<String, List<String>> jobs, RuntimeException ex) {
		if (!(ex instanceof DuplicateJobException duplicate) || duplicate.getSentJobIds().isEmpty()) {
			return jobs;
		}
		Map<String, List<String>> failed = new LinkedHashMap<>();
		jobs.forEach((topic, ids) -> {
			List<String> notSent = ids.stream().filter((id) -> !duplicate.getSentJobIds().contains(id)).toList();
			if (!notSent.isEmpty()) {
				failed.put(topic, notSent);
			}
		});
		return failed;
	}

}
