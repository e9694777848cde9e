package io.github.delayqueue.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown file as GitHub renders it, reduced to what links need: the anchors of its
 * headings and the links it makes, both outside code.
 */
final class MarkdownFile {

	private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)(?:\\s+#+)?\\s*$");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

	private static final Pattern INLINE_LINK = Pattern
		.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");

	private final Path path;

	private final List<String> lines;

	private MarkdownFile(Path path, List<String> lines) {
		this.path = path;
		this.lines = lines;
	}

	static MarkdownFile read(Path path) throws IOException {
		return new MarkdownFile(path, Files.readAllLines(path));
	}

	Path path() {
		return this.path;
	}

	/**
	 * The anchors GitHub gives the headings, in order: the first of a slug plain, the
	 * next ones with {@code -1}, {@code -2} and so on.
	 */
	Set<String> anchors() {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : proseLines()) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(1));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * The links of the file: inline links and images, and reference definitions, each
	 * with its line number.
	 */
	List<Link> links() {
		List<Link> links = new ArrayList<>();
		List<String> prose = proseLines();
		for (int i = 0; i < prose.size(); i++) {
			String line = withoutCodeSpans(prose.get(i));
			Matcher inline = INLINE_LINK.matcher(line);
			while (inline.find()) {
				links.add(new Link(this.path, i + 1, inline.group(1)));
			}
			Matcher reference = REFERENCE_DEFINITION.matcher(line);
			if (reference.find()) {
				links.add(new Link(this.path, i + 1, reference.group(1)));
			}
		}
		return links;
	}

	/**
	 * GitHub's anchor for a heading: its text without Markdown code marks, lower case,
	 * every character but letters, digits, spaces, {@code -} and {@code _} dropped, and
	 * each space turned into {@code -}.
	 */
	static String slug(String heading) {
		String text = heading.strip().toLowerCase(Locale.ROOT);
		text = text.replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} -]", "");
		return text.replace(' ', '-');
	}

	// The file's lines with those of fenced code blocks blanked, so that numbers still
	// match.
	private List<String> proseLines() {
		List<String> prose = new ArrayList<>(this.lines.size());
		String fence = null;
		for (String line : this.lines) {
			String stripped = line.stripLeading();
			if (fence == null && (stripped.startsWith("```") || stripped.startsWith("~~~"))) {
				fence = stripped.substring(0, 3);
				prose.add("");
			}
			else if (fence != null) {
				if (stripped.startsWith(fence)) {
					fence = null;
				}
				prose.add("");
			}
			else {
				prose.add(line);
			}
		}
		return prose;
	}

	// Code spans keep their place but lose their text: a link's text may be code, a
	// code span is never a link.
	private static String withoutCodeSpans(String line) {
		return CODE_SPAN.matcher(line).replaceAll("code");
	}

	/**
	 * A link as written in a Markdown file.
	 *
	 * @param file the file that makes it
	 * @param line its line number, from 1
	 * @param target what it points to, as written
	 */
	record Link(Path file, int line, String target) {

		boolean isExternal() {
			return this.target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || this.target.startsWith("//");
		}

		/**
		 * The file the link points to: the file itself for an anchor alone.
		 */
		Path targetFile() {
			int hash = this.target.indexOf('#');
			String path = (hash >= 0) ? this.target.substring(0, hash) : this.target;
			return path.isEmpty() ? this.file : this.file.resolveSibling(path).normalize();
		}

		/**
		 * The anchor after {@code #}, or {@code null} for a link without one.
		 */
		String anchor() {
			int hash = this.target.indexOf('#');
			return (hash >= 0) ? this.target.substring(hash + 1) : null;
		}

		@Override
		public String toString() {
			return this.file.getFileName() + ":" + this.line + ": (" + this.target + ")";
		}

	}

}
