package io.github.delayqueue.benchmark;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Repeats a warm-up round until the JIT has settled: until one round keeps the JIT's
 * compiler threads busy for less than {@value #SETTLED_MILLIS} ms. What a scenario
 * measures after it is the steady cost of a job, as in an application that has run for a
 * while, not the compiling of a JVM that has just started.
 * <p>
 * On two cores the JIT needs long: an application with Actuator drained about 400,000
 * jobs, a minute and a half, before its compiler went quiet; after a single warm-up of
 * 20,000 jobs it still compiled for a second during a 50,000-job burst, about half of the
 * JVM's CPU in that burst, and the consumers ran code compiled with profiling on, which
 * made the rest twice as dear.
 */
final class JitWarmUp {

	static final long SETTLED_MILLIS = 50;

	private JitWarmUp() {
	}

	/**
	 * Run warm-up rounds until the JIT settles or {@code maxRounds} have run.
	 * @param maxRounds the most rounds to run, at least one
	 * @param round one round of warm-up work
	 * @return the JIT's compile time in each round
	 */
	static Result run(int maxRounds, Runnable round) {
		List<Long> jitMillisPerRound = new ArrayList<>();
		long jit;
		do {
			long before = jitMillis();
			round.run();
			jit = jitMillis() - before;
			jitMillisPerRound.add(jit);
		}
		while (jit >= SETTLED_MILLIS && jitMillisPerRound.size() < maxRounds);
		return new Result(jitMillisPerRound);
	}

	/**
	 * Time the JIT's compiler threads spent compiling since the JVM started.
	 * @return milliseconds, summed over the compiler threads
	 */
	static long jitMillis() {
		return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
	}

	/**
	 * The JIT's compile time in each warm-up round.
	 *
	 * @param jitMillisPerRound milliseconds per round, in order
	 */
	record Result(List<Long> jitMillisPerRound) {

		boolean settled() {
			return this.jitMillisPerRound.get(this.jitMillisPerRound.size() - 1) < SETTLED_MILLIS;
		}

		String describe(String what) {
			return this.jitMillisPerRound.size() + " warm-up rounds of " + what + (settled() ? "" : ", JIT not settled")
					+ "; JIT compile time per round: "
					+ this.jitMillisPerRound.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " ms";
		}

	}

}
