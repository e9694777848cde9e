package io.github.delayqueue;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.github.delayqueue.core.DelayQueueTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public surface of the library jar, listed: every public type outside
 * {@code io.github.delayqueue.internal}, so that a type becomes public API only on
 * purpose (added here and to {@code docs/api.md}, which names each of them).
 */
class PublicApiTests {

	private static final String INTERNAL = "io.github.delayqueue.internal.";

	// What applications use, then what is public only for the auto-configuration
	// (internal by docs/api.md).
	private static final List<String> PUBLIC_TYPES = List.of(
	// @formatter:off
			"annotation.DelayedJobListener",
			"annotation.Recurring",
			"autoconfigure.DelayQueueAutoConfiguration",
			"autoconfigure.DelayQueueClusterAutoConfiguration",
			"autoconfigure.DelayQueueDashboardAutoConfiguration",
			"autoconfigure.DelayQueueEndpointAutoConfiguration",
			"autoconfigure.DelayQueueEndpointProperties",
			"autoconfigure.DelayQueueHealthAutoConfiguration",
			"autoconfigure.DelayQueueHistoryAutoConfiguration",
			"autoconfigure.DelayQueueHttpCallbackAutoConfiguration",
			"autoconfigure.DelayQueueListenerAutoConfiguration",
			"autoconfigure.DelayQueueMetricsAutoConfiguration",
			"autoconfigure.DelayQueueObservationAutoConfiguration",
			"autoconfigure.DelayQueueProperties",
			"autoconfigure.DelayQueueSchedulerAutoConfiguration",
			"autoconfigure.DelayQueueSchedulesAutoConfiguration",
			"autoconfigure.InvalidDelayQueuePropertiesException",
			"autoconfigure.ScheduleProperties",
			"core.DeadJob",
			"core.DeadJobListener",
			"core.DefaultDelayQueueAdmin",
			"core.DelayQueueAdmin",
			"core.DelayQueueException",
			"core.DelayQueueOperations",
			"core.DelayQueueSchedules",
			"core.DelayQueueTemplate",
			"core.DelayedJob",
			"core.DelayedJobErrorHandler",
			"core.DuplicateJobException",
			"core.FailureAction",
			"core.IfPending",
			"core.InvalidJobException",
			"core.InvalidScheduleException",
			"core.JobConstraints",
			"core.JobEvent",
			"core.JobFailure",
			"core.JobInfo",
			"core.JobPayloadValidator",
			"core.JobRequest",
			"core.JobState",
			"core.NonRetryableJobException",
			"core.RateLimitedException",
			"core.RecurringSchedule",
			"core.RetryJobException",
			"core.ScheduleInfo",
			"core.ScheduleRun",
			"core.SendResult",
			"core.TopicGroups",
			"core.TopicOverview",
			"core.TopicStats",
			"core.UnknownScheduleException",
			"dashboard.ShowValues",
			"http.HttpCallback",
			"http.HttpCallbackException",
			"listener.DelayedJobHandler",
			"listener.DelayedJobListenerAnnotationBeanPostProcessor",
			"listener.DelayedJobListenerConfigurer",
			"listener.DelayedJobListenerContainer",
			"listener.DelayedJobListenerContainerFactory",
			"listener.DelayedJobListenerEndpoint",
			"listener.DelayedJobListenerEndpointRegistrar",
			"listener.DelayedJobListenerEndpointRegistry",
			"listener.PayloadConversionException",
			"observation.DefaultDelayQueueProcessObservationConvention",
			"observation.DefaultDelayQueueSendObservationConvention",
			"observation.DelayQueueProcessContext",
			"observation.DelayQueueProcessObservationConvention",
			"observation.DelayQueueSendContext",
			"observation.DelayQueueSendObservationConvention",
			// Internal, public for the auto-configuration.
			"http.HttpCallbackExecutor",
			"http.HttpCallbackListener",
			"http.HttpCallbackValidator",
			"listener.DeadJobNotifier",
			"observation.DelayQueueObservation",
			"observation.LinkingProcessTracingObservationHandler",
			"observation.OwnRedisCommandsPredicate"
	// @formatter:on
	);

	@Test
	void everyPublicTypeOutsideTheInternalPackagesIsListed() throws Exception {
		Set<String> expected = new TreeSet<>();
		PUBLIC_TYPES.forEach((type) -> expected.add("io.github.delayqueue." + type));
		assertThat(publicTypesOutsideInternal()).containsExactlyElementsOf(expected);
	}

	@Test
	void docsApiNamesEveryListedType() throws IOException {
		String api = Files.readString(Path.of("..", "docs", "api.md"));
		// The auto-configuration classes are named together ("the ...AutoConfiguration
		// class names").
		assertThat(api).contains("`...AutoConfiguration` class names");
		assertThat(PUBLIC_TYPES).filteredOn((type) -> !type.endsWith("AutoConfiguration")).allSatisfy((type) -> {
			String simpleName = type.substring(type.lastIndexOf('.') + 1);
			assertThat(api.contains("`" + simpleName + "`") || api.contains("`@" + simpleName + "`"))
				.as("docs/api.md names %s", type)
				.isTrue();
		});
	}

	private static Set<String> publicTypesOutsideInternal() throws IOException, URISyntaxException {
		Path classes = Path.of(DelayQueueTemplate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		Set<String> found = new TreeSet<>();
		try (Stream<Path> files = Files.walk(classes)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".class")).toList()) {
				String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
				name = name.substring(0, name.length() - ".class".length());
				if (name.contains("$") || name.endsWith("package-info") || name.startsWith(INTERNAL)) {
					continue;
				}
				try {
					Class<?> type = Class.forName(name, false, PublicApiTests.class.getClassLoader());
					if (Modifier.isPublic(type.getModifiers())) {
						found.add(name);
					}
				}
				catch (ClassNotFoundException ex) {
					throw new IllegalStateException("Cannot load " + name, ex);
				}
			}
		}
		return found;
	}

}
