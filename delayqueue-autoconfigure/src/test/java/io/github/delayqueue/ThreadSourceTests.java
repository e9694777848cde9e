package io.github.delayqueue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.delayqueue.internal.support.DelayQueueThreads;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every thread of the starter comes from {@link DelayQueueThreads}, built by Spring
 * Boot's task executor builder: no other class of the library creates a thread or an
 * executor of its own, so that {@code spring.threads.virtual.enabled} and the
 * application's task decorator reach each of them.
 */
class ThreadSourceTests {

	private static final Path MAIN_SOURCES = Path.of("src", "main", "java");

	private static final String THREAD_SOURCE = DelayQueueThreads.class.getName().replace('.', '/') + ".java";

	// What creates a thread or an executor outside the builder. CompletableFuture's
	// delayed executors are allowed: the JDK's one shared delay thread runs what they
	// delay, and the starter gives it only tasks that never block (closing a socket,
	// completing a future).
	private static final Pattern RAW_THREADS = Pattern.compile("new Thread\\(|Thread\\.of(Virtual|Platform)\\(|"
			+ "Executors\\.|new (Scheduled)?ThreadPoolExecutor\\b|new ForkJoinPool\\b|new SimpleAsyncTaskExecutor\\b|"
			+ "new ThreadPoolTask(Executor|Scheduler)\\b|new SimpleAsyncTaskScheduler\\b|CustomizableThreadFactory|"
			+ "VirtualThreadTaskExecutor|Thread\\.startVirtualThread|new Timer\\b|(supplyAsync|runAsync)\\([^,]*\\)$");

	@Test
	void noClassButTheThreadSourceCreatesThreadsOrExecutors() throws IOException {
		assertThat(MAIN_SOURCES.resolve(THREAD_SOURCE)).exists();
		List<String> found = new ArrayList<>();
		try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				if (MAIN_SOURCES.relativize(file).toString().replace('\\', '/').equals(THREAD_SOURCE)) {
					continue;
				}
				List<String> lines = Files.readAllLines(file);
				for (int i = 0; i < lines.size(); i++) {
					Matcher matcher = RAW_THREADS.matcher(lines.get(i));
					if (matcher.find()) {
						found.add(MAIN_SOURCES.relativize(file) + ":" + (i + 1) + " " + matcher.group());
					}
				}
			}
		}
		assertThat(found).as("threads or executors created outside DelayQueueThreads").isEmpty();
	}

	@Test
	void theRuleFindsWhatItLooksFor() {
		assertThat(RAW_THREADS.matcher("Thread thread = new Thread(task, name);").find()).isTrue();
		assertThat(RAW_THREADS.matcher("ExecutorService pool = Executors.newFixedThreadPool(2);").find()).isTrue();
		assertThat(RAW_THREADS.matcher("new ScheduledThreadPoolExecutor(1)").find()).isTrue();
		assertThat(RAW_THREADS.matcher("this.threads.daemon(\"delayqueue-scheduler\", task)").find()).isFalse();
	}

}
