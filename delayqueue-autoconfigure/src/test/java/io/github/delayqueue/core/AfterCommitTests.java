package io.github.delayqueue.core;

import java.util.List;

import javax.sql.DataSource;

import io.github.delayqueue.autoconfigure.DelayQueueMetricsAutoConfiguration;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Sends and cancels that wait for the commit of a Spring-managed transaction, run by a
 * real {@link DataSourceTransactionManager} on an embedded H2 database, against a real
 * Redis.
 */
@ExtendWith({ RedisExtension.class, OutputCaptureExtension.class })
class AfterCommitTests {

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.runner = DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.scheduler.enabled=false")
			.withUserConfiguration(Database.class);
	}

	@Test
	void sendsOnlyOnceTheTransactionCommits() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = transaction(context).execute((status) -> {
				insertOrder(context, 1);
				String sent = queue.send(JobRequest.builder("orders.timeout", "order-1").afterCommit().build());
				assertThat(queue.find("orders.timeout", sent)).isEmpty();
				return sent;
			});
			assertThat(orders(context)).containsExactly(1);
			assertThat(queue.find("orders.timeout", id)).map(JobInfo::payloadJson).contains("\"order-1\"");
		});
	}

	@Test
	void sendsNothingWhenTheTransactionRollsBack() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = transaction(context).execute((status) -> {
				insertOrder(context, 2);
				String sent = queue.send(JobRequest.builder("orders.timeout", "order-2").afterCommit().build());
				status.setRollbackOnly();
				return sent;
			});
			assertThat(orders(context)).isEmpty();
			assertThat(queue.find("orders.timeout", id)).isEmpty();
			assertThat(context.getBean(DelayQueueAdmin.class).stats("orders.timeout"))
				.isEqualTo(new TopicStats("orders.timeout", 0, 0, 0, 0));
		});
	}

	@Test
	void sendsAtOnceOutsideATransactionOrWhenTheCallSaysSo() {
		this.runner.withPropertyValues("delayqueue.transaction-aware=true").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String outside = queue.send(JobRequest.builder("t", "x").afterCommit().build());
			assertThat(queue.find("t", outside)).isPresent();
			transaction(context).executeWithoutResult((status) -> {
				String now = queue.send(JobRequest.builder("t", "y").afterCommit(false).build());
				assertThat(queue.find("t", now)).isPresent();
				status.setRollbackOnly();
			});
		});
	}

	@Test
	void defersEverySendAndCancelWhenTransactionAware() {
		this.runner.withPropertyValues("delayqueue.transaction-aware=true").run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String pending = queue.send("t", "pending");
			List<String> ids = transaction(context).execute((status) -> {
				String one = queue.send("t", "one");
				List<String> batch = queue.sendAll(List.of(JobRequest.builder("t", "two").build(),
						JobRequest.builder("u", "three").id("three").build()));
				assertThat(queue.cancel("t", pending)).isTrue();
				assertThat(queue.find("t", pending)).isPresent();
				assertThat(queue.find("t", one)).isEmpty();
				assertThat(queue.find("u", "three")).isEmpty();
				return List.of(one, batch.get(0), batch.get(1));
			});
			assertThat(ids.get(2)).isEqualTo("three");
			assertThat(queue.find("t", ids.get(0))).isPresent();
			assertThat(queue.find("t", ids.get(1))).isPresent();
			assertThat(queue.find("u", "three")).isPresent();
			assertThat(queue.find("t", pending)).isEmpty();
		});
	}

	@Test
	void keepsAJobWhoseCancelRollsBack() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			String id = queue.send("t", "kept");
			transaction(context).executeWithoutResult((status) -> {
				queue.cancelAfterCommit("t", id);
				assertThat(queue.find("t", id)).isPresent();
				status.setRollbackOnly();
			});
			assertThat(queue.find("t", id)).isPresent();
			transaction(context).executeWithoutResult((status) -> queue.cancelAfterCommit("t", id));
			assertThat(queue.find("t", id)).isEmpty();
		});
	}

	@Test
	void refusesAnInvalidSendInsideTheTransaction() {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> transaction(context).executeWithoutResult((status) -> {
					insertOrder(context, 3);
					queue.send(JobRequest.builder("no spaces", "x").afterCommit().build());
				}))
				.withMessageContaining("no spaces");
			assertThat(orders(context)).isEmpty();
		});
	}

	@Test
	void logsAndCountsASendThatFailsAfterTheCommit(CapturedOutput output) {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
							SimpleMetricsExportAutoConfiguration.class, DelayQueueMetricsAutoConfiguration.class))
			.run((context) -> {
				DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
				queue.send(JobRequest.builder("orders.timeout", "first").id("order-4").build());
				String id = transaction(context).execute((status) -> {
					insertOrder(context, 4);
					return queue
						.send(JobRequest.builder("orders.timeout", "second").id("order-4").afterCommit().build());
				});
				assertThat(id).isEqualTo("order-4");
				assertThat(orders(context)).containsExactly(4);
				assertThat(queue.find("orders.timeout", "order-4")).map(JobInfo::payloadJson).contains("\"first\"");
				assertThat(output).contains("ERROR")
					.contains("The send of jobs {orders.timeout=[order-4]}, deferred until the transaction committed, "
							+ "failed after the commit; it was not made")
					.contains("DuplicateJobException");
				assertThat(context.getBean(MeterRegistry.class)
					.get("delayqueue.jobs.deferred.failed")
					.tag("topic", "orders.timeout")
					.tag("operation", "send")
					.counter()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void reportsDeferredJobsOfABatchAndLogsARefusalAmongThemAfterTheCommit(CapturedOutput output) {
		this.runner.run((context) -> {
			DelayQueueOperations queue = context.getBean(DelayQueueOperations.class);
			queue.send(JobRequest.builder("orders.timeout", "first").id("order-5").build());
			List<SendResult> results = transaction(context).execute((status) -> {
				insertOrder(context, 5);
				return queue.sendAllWithResults(
						List.of(JobRequest.builder("orders.timeout", "second").id("order-5").afterCommit().build(),
								JobRequest.builder("orders.timeout", "third").id("order-6").afterCommit().build()));
			});
			assertThat(results).extracting(SendResult::outcome)
				.containsExactly(SendResult.Outcome.DEFERRED, SendResult.Outcome.DEFERRED);
			assertThat(queue.find("orders.timeout", "order-5")).map(JobInfo::payloadJson).contains("\"first\"");
			assertThat(queue.find("orders.timeout", "order-6")).map(JobInfo::payloadJson).contains("\"third\"");
			assertThat(output).contains("failed after the commit")
				.contains("DuplicateJobException")
				.contains("order-5");
		});
	}

	private static TransactionTemplate transaction(AssertableApplicationContext context) {
		return context.getBean(TransactionTemplate.class);
	}

	private static void insertOrder(AssertableApplicationContext context, int id) {
		context.getBean(JdbcTemplate.class).update("insert into orders (id) values (?)", id);
	}

	private static List<Integer> orders(AssertableApplicationContext context) {
		return context.getBean(JdbcTemplate.class).queryForList("select id from orders order by id", Integer.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class Database {

		@Bean(destroyMethod = "shutdown")
		EmbeddedDatabase dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:io/github/delayqueue/core/orders.sql")
				.build();
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		TransactionTemplate transactionTemplate(DataSourceTransactionManager transactionManager) {
			return new TransactionTemplate(transactionManager);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

	}

}
