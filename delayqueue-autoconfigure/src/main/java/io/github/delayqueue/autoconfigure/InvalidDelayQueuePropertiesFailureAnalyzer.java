package io.github.delayqueue.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidDelayQueuePropertiesException} into a start-up report that lists
 * every problem and says how to correct it.
 *
 * @author delayqueue contributors
 */
class InvalidDelayQueuePropertiesFailureAnalyzer extends AbstractFailureAnalyzer<InvalidDelayQueuePropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidDelayQueuePropertiesException cause) {
		StringBuilder description = new StringBuilder("The delay queue configuration has ")
			.append(cause.getProblems().size())
			.append((cause.getProblems().size() == 1) ? " problem:" : " problems:")
			.append(System.lineSeparator());
		cause.getProblems()
			.forEach((problem) -> description.append(System.lineSeparator()).append("    - ").append(problem));
		String action = "Correct or remove the properties above. Every key under 'delayqueue' must name a property "
				+ "(your IDE completes them from the starter's configuration metadata); a topic's settings go under "
				+ "'delayqueue.topics.<topic>.', where a topic takes " + TopicPropertiesBinder.settings() + ".";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
