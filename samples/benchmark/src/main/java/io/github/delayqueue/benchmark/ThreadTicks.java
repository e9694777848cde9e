package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this process, Java or not (garbage collector, JIT
 * compilers), user and system apart, from Linux's {@code /proc/self/task}. The Flight
 * Recorder samples only threads running Java code, so it misses the kernel's share
 * (socket calls, waking parked threads) and the JVM's own threads; this table shows where
 * the rest of a job's CPU goes. Elsewhere than on Linux the table is left out.
 */
final class ThreadTicks {

	// Linux reports thread times in clock ticks of 10 ms (USER_HZ = 100 on every common
	// kernel configuration).
	private static final double MICROS_PER_TICK = 10_000;

	// "C2 CompilerThread0" and "C1 CompilerThread0", digits removed and cut to 15
	// characters by Linux.
	private static final String JIT_THREADS = "C CompilerThre";

	private ThreadTicks() {
	}

	/**
	 * Read the CPU ticks of each thread, summed by thread name without its digits.
	 * @return user and system ticks by thread group; empty when not on Linux
	 */
	static Map<String, long[]> read() {
		Map<String, long[]> ticks = new HashMap<>();
		Path tasks = Path.of("/proc/self/task");
		if (!Files.isDirectory(tasks)) {
			return ticks;
		}
		try (Stream<Path> threads = Files.list(tasks)) {
			for (Path thread : threads.toList()) {
				try {
					String stat = Files.readString(thread.resolve("stat"));
					// pid (comm) state ... : the name may hold spaces, so split after
					// ')'.
					String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
					String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
					long[] sum = ticks.computeIfAbsent(group(name), (key) -> new long[2]);
					sum[0] += Long.parseLong(fields[11]);
					sum[1] += Long.parseLong(fields[12]);
				}
				catch (IOException | RuntimeException ex) {
					// The thread ended between the listing and the read.
				}
			}
		}
		catch (IOException ex) {
			return Map.of();
		}
		return ticks;
	}

	/**
	 * CPU per job of every thread but the JIT compiler's. On two cores the compiler still
	 * works through its queue well after start-up and warm-up, taking from half to two
	 * thirds of the process's CPU during a burst of 50,000 jobs; that cost does not grow
	 * with the jobs, so it hides what a job costs.
	 * @param before ticks at the start
	 * @param after ticks at the end
	 * @param jobs jobs handled in between
	 * @return µs per job, or -1 when the counters cannot be read
	 */
	static double microsPerJobWithoutJit(Map<String, long[]> before, Map<String, long[]> after, int jobs) {
		if (after.isEmpty()) {
			return -1;
		}
		long ticks = 0;
		for (Map.Entry<String, long[]> entry : after.entrySet()) {
			if (entry.getKey().startsWith(JIT_THREADS)) {
				continue;
			}
			long[] earlier = before.getOrDefault(entry.getKey(), new long[2]);
			ticks += (entry.getValue()[0] - earlier[0]) + (entry.getValue()[1] - earlier[1]);
		}
		return ticks * MICROS_PER_TICK / jobs;
	}

	static void appendTable(StringBuilder out, Map<String, long[]> before, Map<String, long[]> after, int jobs) {
		if (after.isEmpty()) {
			return;
		}
		List<String[]> rows = new ArrayList<>();
		long userTotal = 0;
		long systemTotal = 0;
		for (Map.Entry<String, long[]> entry : after.entrySet()) {
			long[] earlier = before.getOrDefault(entry.getKey(), new long[2]);
			long user = entry.getValue()[0] - earlier[0];
			long system = entry.getValue()[1] - earlier[1];
			if (user + system <= 0) {
				continue;
			}
			userTotal += user;
			systemTotal += system;
			rows.add(new String[] { entry.getKey(), perJob(user, jobs), perJob(system, jobs),
					Long.toString(user + system) });
		}
		rows.sort((a, b) -> Long.compare(Long.parseLong(b[3]), Long.parseLong(a[3])));
		out.append("## CPU by thread, user and system (Linux's per-thread counters, 10 ms ticks)\n\n");
		out.append("| Threads | user µs per job | system µs per job |\n|---|--:|--:|\n");
		for (String[] row : rows) {
			out.append("| ").append(row[0]).append(" | ").append(row[1]).append(" | ").append(row[2]).append(" |\n");
		}
		out.append("| **all** | ")
			.append(perJob(userTotal, jobs))
			.append(" | ")
			.append(perJob(systemTotal, jobs))
			.append(" |\n");
	}

	private static String perJob(long ticks, int jobs) {
		return String.format(Locale.ROOT, "%.1f", ticks * MICROS_PER_TICK / jobs);
	}

	// "bench.burst-wor" and "GC Thread#1" become "bench.burst-wor" and "GC Thread#":
	// Linux keeps 15 characters of a name, so worker numbers are often cut already.
	private static String group(String name) {
		return name.replaceAll("[0-9]+", "").strip();
	}

}
