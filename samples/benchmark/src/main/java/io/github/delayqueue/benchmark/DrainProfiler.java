package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Records our client's burst drain with JDK Flight Recorder (built into the JDK) and
 * writes a summary next to the recording: where the consumer threads spend CPU and what
 * they allocate, by method, inclusive of callees. Only the measured burst is recorded,
 * not the warm-up, the enqueueing or Redisson's turn.
 */
final class DrainProfiler implements AutoCloseable {

	// Threads of our starter's listeners, scheduler and Lettuce's event loop: the JVM
	// side of a drain. The benchmark's own main thread only waits.
	private static final List<String> DRAIN_THREADS = List.of("delayqueue", "lettuce", "bench");

	private static final int TOP = 40;

	private final Recording recording;

	private final Path recordingFile;

	private final Path summaryFile;

	private final int jobs;

	private Map<String, long[]> threadTicksBefore = Map.of();

	private Instant burstStart = Instant.MAX;

	private boolean closed;

	private DrainProfiler(Recording recording, Path output, String name, int jobs) {
		this.recording = recording;
		this.recordingFile = output.resolve(name + ".jfr");
		this.summaryFile = output.resolve(name + ".md");
		this.jobs = jobs;
	}

	static DrainProfiler start(Path output, String name, int jobs) {
		try {
			Files.createDirectories(output);
			Recording recording = new Recording(Configuration.getConfiguration("profile"));
			// A 1 ms period: the default 10 to 20 ms gives too few samples for a burst of
			// a few seconds.
			recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
			recording.enable("jdk.ObjectAllocationSample");
			recording.start();
			return new DrainProfiler(recording, output, name, jobs);
		}
		catch (IOException | ParseException ex) {
			throw new IllegalStateException("Cannot start the Flight Recorder", ex);
		}
	}

	/**
	 * Mark the start of the measured burst. The recording starts earlier, before the
	 * warm-up: starting the Flight Recorder invalidates compiled code, and the JIT's
	 * recompiling it would otherwise be counted as the burst's cost.
	 */
	void burstStarts() {
		this.threadTicksBefore = ThreadTicks.read();
		this.burstStart = Instant.now();
	}

	/**
	 * Stop recording and write the summary; call it once the drain is over and before the
	 * consumers stop, whose threads' times end with them.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		Map<String, long[]> threadTicksAfter = ThreadTicks.read();
		try {
			this.recording.stop();
			this.recording.dump(this.recordingFile);
			this.recording.close();
			Files.writeString(this.summaryFile, summary(threadTicksAfter));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot write the profile to " + this.recordingFile, ex);
		}
	}

	Path summaryFile() {
		return this.summaryFile;
	}

	private String summary(Map<String, long[]> threadTicksAfter) throws IOException {
		Tally cpu = new Tally();
		Tally allocation = new Tally();
		for (RecordedEvent event : RecordingFile.readAllEvents(this.recordingFile)) {
			if (event.getStartTime().isBefore(this.burstStart)) {
				continue;
			}
			String type = event.getEventType().getName();
			if (type.equals("jdk.ExecutionSample") && isDrainThread(event.getThread("sampledThread"))) {
				cpu.add(event.getStackTrace(), 1);
			}
			else if (type.equals("jdk.ObjectAllocationSample") && isDrainThread(event.getThread("eventThread"))) {
				allocation.add(event.getStackTrace(), event.getLong("weight"));
			}
		}
		StringBuilder out = new StringBuilder();
		out.append("# Profile of our client's burst drain (").append(this.jobs).append(" jobs)\n\n");
		out.append("Recording: ")
			.append(this.recordingFile.getFileName())
			.append(" (open it in JDK Mission Control, ")
			.append("or `jfr print --events jdk.ExecutionSample`). Threads: ")
			.append(String.join(", ", DRAIN_THREADS))
			.append("*. Inclusive: a method counts with everything it calls.\n\n");
		ThreadTicks.appendTable(out, this.threadTicksBefore, threadTicksAfter, this.jobs);
		out.append("\n## CPU: execution samples, 1 ms apart (")
			.append(cpu.total)
			.append(" samples, about ")
			.append(String.format(Locale.ROOT, "%.1f", cpu.total * 1000.0 / this.jobs))
			.append(" µs of sampled Java time per job; the Recorder samples only a few threads running Java code per")
			.append(" period, so take proportions from this table and amounts from the one above)\n\n");
		cpu.appendTop(out, "samples", 1);
		out.append("\n## Allocation: sampled bytes by method (about ")
			.append(String.format(Locale.ROOT, "%,d", allocation.total / this.jobs))
			.append(" bytes per job)\n\n");
		allocation.appendTop(out, "MB", 1_000_000);
		return out.toString();
	}

	private static boolean isDrainThread(RecordedThread thread) {
		String name = (thread != null) ? thread.getJavaName() : null;
		return name != null && DRAIN_THREADS.stream().anyMatch(name::startsWith);
	}

	private static final class Tally {

		private final Map<String, Long> inclusive = new HashMap<>();

		private final Map<String, Long> self = new HashMap<>();

		private long total;

		void add(RecordedStackTrace stack, long weight) {
			if (stack == null || stack.getFrames().isEmpty()) {
				return;
			}
			this.total += weight;
			List<RecordedFrame> frames = stack.getFrames();
			this.self.merge(name(frames.get(0)), weight, Long::sum);
			Set<String> seen = new HashSet<>();
			for (RecordedFrame frame : frames) {
				String name = name(frame);
				if (seen.add(name)) {
					this.inclusive.merge(name, weight, Long::sum);
				}
			}
		}

		void appendTop(StringBuilder out, String unit, long divisor) {
			out.append("| Inclusive ").append(unit).append(" | % | Self ").append(unit).append(" | Method |\n");
			out.append("|--:|--:|--:|---|\n");
			List<Map.Entry<String, Long>> top = new ArrayList<>(this.inclusive.entrySet());
			top.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
			for (Map.Entry<String, Long> entry : top.subList(0, Math.min(TOP, top.size()))) {
				out.append(String.format(Locale.ROOT, "| %,.1f | %.1f | %,.1f | `%s` |%n",
						entry.getValue() / (double) divisor, 100.0 * entry.getValue() / Math.max(1, this.total),
						this.self.getOrDefault(entry.getKey(), 0L) / (double) divisor, entry.getKey()));
			}
		}

		private static String name(RecordedFrame frame) {
			String type = frame.getMethod().getType().getName();
			return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
		}

	}

}
