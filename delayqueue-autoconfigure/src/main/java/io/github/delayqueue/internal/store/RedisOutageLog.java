package io.github.delayqueue.internal.store;

import java.net.ConnectException;

import org.apache.commons.logging.Log;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * How the starter's background loops (listeners, their blocking waits, the scheduler) log
 * failing Redis calls so that an operator can read them: the first failure of an outage
 * is one line, with the cause and that the loop retries; the stack trace, which says
 * nothing about an unreachable Redis that the cause does not, goes to DEBUG, as do the
 * failures that follow until the loop succeeds again. A failure that is not Redis being
 * unreachable (a bug, a refused script) keeps its stack trace at WARN.
 *
 * @author delayqueue contributors
 */
public final class RedisOutageLog {

	private RedisOutageLog() {
	}

	/**
	 * Log a failure of a loop that retries with {@link ReconnectBackoff}.
	 * @param logger the loop's logger
	 * @param who the loop, such as {@code Listener 'x'}
	 * @param action what it was doing, such as {@code claim jobs}
	 * @param failures the failures in a row, this one included
	 * @param ex the failure
	 */
	public static void failed(Log logger, String who, String action, int failures, Throwable ex) {
		if (failures > 1) {
			if (logger.isDebugEnabled()) {
				logger.debug(who + " still cannot " + action + " (" + failures + " tries in a row)", ex);
			}
			return;
		}
		if (!isUnreachable(ex)) {
			logger.warn(who + " failed to " + action + "; retrying in the background until it succeeds", ex);
			return;
		}
		logger.warn(
				who + " cannot reach Redis to " + action + " (" + describe(ex) + "); retrying in the background, every "
						+ ReconnectBackoff.delay(Integer.MAX_VALUE).toSeconds() + "s at the most, until it answers");
		if (logger.isDebugEnabled()) {
			logger.debug(who + " cannot reach Redis to " + action, ex);
		}
	}

	/**
	 * Tell whether a failure means that Redis cannot be reached or does not answer.
	 * @param ex the failure
	 * @return {@code true} for a refused or lost connection or a timeout
	 */
	public static boolean isUnreachable(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof DataAccessResourceFailureException || cause instanceof QueryTimeoutException
					|| cause instanceof ConnectException) {
				return true;
			}
		}
		return false;
	}

	// The failure and its root cause, which is where "Connection refused" is said.
	private static String describe(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String described = ex.getClass().getSimpleName() + ": " + ex.getMessage();
		return (root == ex) ? described : described + "; " + root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
