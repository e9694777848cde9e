package io.github.delayqueue.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's test class is the one that src/it/readme-test compiles and runs in a new
 * Boot project, character for character, so that what users paste is what the build
 * proved.
 */
class ReadmeTestClassTests {

	private static final Path README = Path.of("..", "README.md");

	private static final Path RUN_CLASS = Path
		.of("src/it/readme-test/src/test/java/com/example/shop/PaymentReminderTests.java");

	@Test
	void theReadmeShowsTheClassThatTheBuildRuns() throws IOException {
		assertThat(readmeTestClass()).isEqualTo(Files.readString(RUN_CLASS));
	}

	@Test
	void theReadmesScheduleExampleIsATestThatTheSuiteRuns() throws IOException {
		String readme = Files.readString(README);
		int mention = readme.indexOf("delayQueue.runNextTick(");
		int start = readme.lastIndexOf("```java\n", mention);
		String example = readme.substring(start + "```java\n".length(), readme.indexOf("```\n", mention));
		String test = Files.readString(Path.of("src/test/java/io/github/delayqueue/test/ScheduleTesterTests.java"));
		assertThat(withoutSpaces(test)).contains(withoutSpaces(example));
	}

	private static String withoutSpaces(String code) {
		return code.replaceAll("\\s+", "");
	}

	private static String readmeTestClass() throws IOException {
		String readme = Files.readString(README);
		int section = readme.indexOf("\n## Testing your application\n");
		assertThat(section).as("the README's 'Testing your application' section").isNotNegative();
		int start = readme.indexOf("```java\n", section);
		int end = readme.indexOf("```\n", start + 1);
		int nextSection = readme.indexOf("\n## ", section + 1);
		assertThat(start).as("a Java block in the section").isNotNegative().isLessThan(nextSection);
		return readme.substring(start + "```java\n".length(), end);
	}

}
