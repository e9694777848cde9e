package io.github.delayqueue.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the README and of the chapters under docs/ leads somewhere: its
 * file exists, and its anchor is one that GitHub gives a heading of that file. Chapters
 * move and headings change; a reader who follows a link should never land nowhere.
 */
class DocumentationLinksTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	@Test
	void everyRelativeLinkOfTheReadmeAndTheDocsLeadsToAFileAndAHeading() throws IOException {
		Map<Path, Set<String>> anchors = new HashMap<>();
		List<String> broken = new ArrayList<>();
		for (Path path : documentation()) {
			for (MarkdownFile.Link link : MarkdownFile.read(path).links()) {
				if (link.isExternal()) {
					continue;
				}
				Path target = link.targetFile();
				if (!Files.exists(target)) {
					broken.add(link + " names no file: " + ROOT.relativize(target));
					continue;
				}
				String anchor = link.anchor();
				if (anchor != null && target.toString().endsWith(".md")) {
					Set<String> known = anchors.computeIfAbsent(target, DocumentationLinksTests::anchorsOf);
					if (!known.contains(anchor)) {
						broken.add(link + " names no heading of " + ROOT.relativize(target));
					}
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void theChaptersAreFound() throws IOException {
		assertThat(documentation()).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/README.md"),
				ROOT.resolve("docs/testing.md"));
	}

	@Test
	void anchorsFollowGitHubsRules() {
		assertThat(MarkdownFile.slug("Fair groups (tenants)")).isEqualTo("fair-groups-tenants");
		assertThat(MarkdownFile.slug("Managing queues: `DelayQueueAdmin`"))
			.isEqualTo("managing-queues-delayqueueadmin");
		assertThat(MarkdownFile.slug("Timeline and retention within the budget (2026-11-27, evening)"))
			.isEqualTo("timeline-and-retention-within-the-budget-2026-11-27-evening");
		assertThat(MarkdownFile.slug("Cancel latency (scenario 8)")).isEqualTo("cancel-latency-scenario-8");
		assertThat(MarkdownFile.slug("snake_case and a-dash")).isEqualTo("snake_case-and-a-dash");
	}

	@Test
	void aRepeatedHeadingGetsANumberedAnchor(@TempDir Path dir) throws IOException {
		Path file = dir.resolve("repeated.md");
		Files.writeString(file, """
				# Title
				## Results
				```
				## Results (in code, no heading)
				```
				## Results
				### Results
				""");
		assertThat(MarkdownFile.read(file).anchors()).containsExactly("title", "results", "results-1", "results-2");
	}

	private static List<Path> documentation() throws IOException {
		List<Path> files = new ArrayList<>();
		files.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		return files;
	}

	private static Set<String> anchorsOf(Path file) {
		try {
			return MarkdownFile.read(file).anchors();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file, ex);
		}
	}

}
