package io.github.delayqueue.autoconfigure;

import java.util.List;

/**
 * Thrown at start-up when the {@code delayqueue.*} configuration has unknown keys or
 * invalid values; it names every one of them at once, so that a single restart shows all
 * that is left to correct.
 *
 * @author delayqueue contributors
 */
public class InvalidDelayQueuePropertiesException extends IllegalStateException {

	private final List<String> problems;

	/**
	 * Create an exception for problems found in the configuration.
	 * @param problems one sentence per problem, each naming its property
	 */
	public InvalidDelayQueuePropertiesException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Return the problems, one sentence each, in the order they were found.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Invalid delay queue configuration (").append(problems.size())
			.append((problems.size() == 1) ? " problem):" : " problems):");
		problems.forEach((problem) -> message.append(System.lineSeparator()).append(" - ").append(problem));
		return message.toString();
	}

}
