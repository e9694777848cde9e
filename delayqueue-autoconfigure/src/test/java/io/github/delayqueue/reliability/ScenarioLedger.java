package io.github.delayqueue.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.github.delayqueue.test.RecordingJobHandler;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Reads what {@link RecordingJobHandler}s wrote into Redis, in whichever JVM they ran,
 * and turns it into a scenario's figures.
 */
final class ScenarioLedger {

	private static final Path FIGURES = Path.of("target", "reliability-figures.md");

	private final StringRedisTemplate redis;

	private final String ledger;

	ScenarioLedger(StringRedisTemplate redis, String topic) {
		this.redis = redis;
		this.ledger = RecordingJobHandler.ledger(topic);
	}

	/**
	 * Return how many times each job's handler ran to completion.
	 * @return completions by job id
	 */
	Map<String, Long> completions() {
		Map<String, Long> counts = new HashMap<>();
		for (String run : runsCompleted()) {
			counts.merge(run.substring(0, run.indexOf(' ')), 1L, Long::sum);
		}
		return counts;
	}

	/**
	 * Return the completed runs that were not a job's first delivery.
	 * @return the runs, as {@code "<id> attempt <n> on <instance>"}
	 */
	Set<String> redeliveredRuns() {
		Set<String> redelivered = new HashSet<>();
		for (String run : runsCompleted()) {
			if (!run.contains(" attempt 1 on ")) {
				redelivered.add(run);
			}
		}
		return redelivered;
	}

	private Set<String> runsCompleted() {
		return this.redis.<String, String>opsForHash().keys(this.ledger + ":completions");
	}

	/**
	 * Return how many handler runs each instance made.
	 * @return runs by instance name
	 */
	Map<String, Long> runsByInstance() {
		return counts(this.ledger + ":instances");
	}

	/**
	 * Return whether every job that should complete did.
	 * @param expected the ids expected to complete
	 * @return {@code true} once all did
	 */
	boolean completedAll(Set<String> expected) {
		return completions().keySet().containsAll(expected);
	}

	/**
	 * Work out a scenario's figures, print them and keep them for the documentation.
	 * @param scenario the scenario's name
	 * @param sent the ids sent
	 * @param dead the ids that are dead by design
	 * @param invariants the checker used during the scenario
	 * @return the figures
	 */
	Figures report(String scenario, Set<String> sent, Set<String> dead, QueueInvariants invariants) {
		Map<String, Long> completions = completions();
		Set<String> lost = new HashSet<>(sent);
		lost.removeAll(completions.keySet());
		lost.removeAll(dead);
		long duplicates = completions.values().stream().filter((count) -> count > 1).count();
		Figures figures = new Figures(scenario, sent.size(), completions.size(), dead.size(), lost.size(), duplicates,
				invariants.checks(), invariants.violations().size(), lost);
		String line = String.format("| %s | %d | %d | %d | %d | %d | %d | %d |", scenario, figures.sent(),
				figures.completed(), figures.dead(), figures.lost(), figures.duplicates(), figures.checks(),
				figures.violations());
		System.out.println("RELIABILITY " + line);
		if (duplicates > 0) {
			Set<String> twice = new HashSet<>();
			completions.forEach((id, count) -> {
				if (count > 1) {
					twice.add(id);
				}
			});
			runsCompleted().stream()
				.filter((run) -> twice.contains(run.substring(0, run.indexOf(' '))))
				.sorted()
				.forEach((run) -> System.out.println("RELIABILITY duplicate in " + scenario + ": " + run));
		}
		try {
			Files.createDirectories(FIGURES.getParent());
			Files.writeString(FIGURES, line + System.lineSeparator(), StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			System.out.println("Could not keep the figures in " + FIGURES + ": " + ex);
		}
		return figures;
	}

	private Map<String, Long> counts(String key) {
		Map<String, Long> counts = new HashMap<>();
		this.redis.<String, String>opsForHash()
			.entries(key)
			.forEach((id, count) -> counts.put(id, Long.parseLong(count)));
		return counts;
	}

	/**
	 * What one scenario did.
	 *
	 * @param scenario its name
	 * @param sent jobs confirmed sent
	 * @param completed jobs whose handler completed at least once
	 * @param dead jobs dead by design (handlers that never succeed)
	 * @param lost jobs sent that neither completed nor are dead: must be 0
	 * @param duplicates jobs whose handler completed more than once
	 * @param checks atomic invariant checks made while the scenario ran
	 * @param violations invariant violations found: must be 0
	 * @param lostIds the lost jobs' ids
	 */
	record Figures(String scenario, int sent, int completed, int dead, int lost, long duplicates, int checks,
			int violations, Set<String> lostIds) {

	}

}
