package io.github.delayqueue.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test class of "Testing your application" (docs/testing.md, which the README links
 * to) is the one that src/it/readme-test compiles and runs in a new Boot project,
 * character for character, so that what users paste is what the build proved.
 */
class ReadmeTestClassTests {

	private static final Path TESTING = Path.of("..", "docs", "testing.md");

	private static final Path RUN_CLASS = Path
		.of("src/it/readme-test/src/test/java/com/example/shop/PaymentReminderTests.java");

	@Test
	void theTestingChapterShowsTheClassThatTheBuildRuns() throws IOException {
		assertThat(testingChapterTestClass()).isEqualTo(Files.readString(RUN_CLASS));
	}

	@Test
	void theTestingChaptersScheduleExampleIsATestThatTheSuiteRuns() throws IOException {
		String chapter = Files.readString(TESTING);
		int mention = chapter.indexOf("delayQueue.runNextTick(");
		assertThat(mention).as("the schedule example in docs/testing.md").isNotNegative();
		int start = chapter.lastIndexOf("```java\n", mention);
		String example = chapter.substring(start + "```java\n".length(), chapter.indexOf("```\n", mention));
		String test = Files.readString(Path.of("src/test/java/io/github/delayqueue/test/ScheduleTesterTests.java"));
		assertThat(withoutSpaces(test)).contains(withoutSpaces(example));
	}

	private static String withoutSpaces(String code) {
		return code.replaceAll("\\s+", "");
	}

	// The chapter's first Java block, before any section of its own.
	private static String testingChapterTestClass() throws IOException {
		String chapter = Files.readString(TESTING);
		assertThat(chapter).as("docs/testing.md").startsWith("# Testing your application\n");
		int start = chapter.indexOf("```java\n");
		int end = chapter.indexOf("```\n", start + 1);
		int firstSection = chapter.indexOf("\n## ");
		assertThat(start).as("a Java block in the chapter's introduction")
			.isNotNegative()
			.isLessThan((firstSection < 0) ? chapter.length() : firstSection);
		return chapter.substring(start + "```java\n".length(), end);
	}

}
