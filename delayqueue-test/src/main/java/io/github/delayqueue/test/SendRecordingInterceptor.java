package io.github.delayqueue.test;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.core.DuplicateJobException;
import io.github.delayqueue.core.JobRequest;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Records every job that a {@code DelayQueueOperations} bean sent: the sends that
 * returned, and the jobs of a batch that went in although others were refused as
 * duplicates. A send that threw before writing is not recorded, as nothing was sent.
 *
 * @author delayqueue contributors
 */
final class SendRecordingInterceptor implements MethodInterceptor {

	private final SentJobs sent;

	SendRecordingInterceptor(SentJobs sent) {
		this.sent = sent;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		Object[] args = invocation.getArguments();
		String name = method.getName();
		if (name.equals("sendAll") && args.length == 1 && args[0] instanceof Collection<?> requests) {
			return sendAll(invocation, requests);
		}
		Object result = invocation.proceed();
		if ((name.equals("send") || name.equals("sendAt")) && result instanceof String id) {
			recordSingle(args, id);
		}
		return result;
	}

	private void recordSingle(Object[] args, String id) {
		if (args.length == 1 && args[0] instanceof JobRequest request) {
			this.sent.add(of(request, id));
		}
		else if (args.length >= 2 && args[0] instanceof String topic && args[1] != null) {
			Duration delay = (args.length > 2 && args[2] instanceof Duration value) ? value : null;
			Instant dueAt = (args.length > 2 && args[2] instanceof Instant value) ? value : null;
			this.sent.add(new SentJob(topic, id, args[1], delay, dueAt, Map.of()));
		}
	}

	private Object sendAll(MethodInvocation invocation, Collection<?> requests) throws Throwable {
		List<JobRequest> batch = new ArrayList<>();
		for (Object request : requests) {
			if (request instanceof JobRequest job) {
				batch.add(job);
			}
		}
		try {
			Object result = invocation.proceed();
			if (result instanceof List<?> ids && ids.size() == batch.size()) {
				for (int i = 0; i < ids.size(); i++) {
					this.sent.add(of(batch.get(i), String.valueOf(ids.get(i))));
				}
			}
			return result;
		}
		catch (DuplicateJobException ex) {
			recordSentDespite(batch, ex);
			throw ex;
		}
	}

	// The refused ids are all the senders' own (a generated id that clashes is drawn
	// anew); the other requests went in, in order, with the ids the exception lists.
	private void recordSentDespite(List<JobRequest> batch, DuplicateJobException ex) {
		Set<String> refused = new HashSet<>(ex.getJobIds());
		Iterator<String> sentIds = ex.getSentJobIds().iterator();
		for (JobRequest request : batch) {
			boolean wasRefused = request.id() != null && refused.contains(request.id());
			if (!wasRefused && sentIds.hasNext()) {
				this.sent.add(of(request, sentIds.next()));
			}
		}
	}

	static SentJob of(JobRequest request, String id) {
		return new SentJob(request.topic(), id, request.payload(), request.delay(), request.dueAt(), request.headers());
	}

}
