package io.github.delayqueue.core;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.internal.store.JobClaims.ClaimedJob;
import io.github.delayqueue.internal.store.JobHistoryPolicy;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The default methods of {@link DelayQueueAdmin} and {@link DelayQueueOperations}, as an
 * implementation that has only the abstract ones gets them: each does what its Javadoc
 * says, or refuses with a clear message where it cannot. The abstract methods go to the
 * starter's own implementations on a real Redis.
 */
@ExtendWith(RedisExtension.class)
class InterfaceDefaultsTests {

	private static final String TOPIC = "receipts";

	private DelayQueueFixture fixture;

	private JobHistoryWiring wiring;

	@BeforeEach
	void setUp(RedisTestServer server) {
		server.flushAll();
		this.fixture = new DelayQueueFixture(server);
		this.wiring = JobHistoryWiring.of(this.fixture, this.fixture.keys(),
				new JobHistoryPolicy(Duration.ofHours(1), 10_000), "host-a");
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void countKeptCountsBelowOneThousandAndRefusesToGuessAboveIt() {
		DelayQueueAdmin admin = onlyAbstract(DelayQueueAdmin.class, this.wiring.admin());
		finish(999);
		assertThat(admin.countKept(TOPIC, JobState.COMPLETED)).isEqualTo(999);
		assertThat(admin.countKept(TOPIC, JobState.CANCELLED)).isZero();

		finish(2);

		assertThat(this.wiring.admin().countKept(TOPIC, JobState.COMPLETED)).isEqualTo(1001);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> admin.countKept(TOPIC, JobState.COMPLETED))
			.withMessageContaining("receipts")
			.withMessageContaining("override countKept");
	}

	@Test
	void countKeptRefusesAStateThatIsNotKept() {
		DelayQueueAdmin admin = onlyAbstract(DelayQueueAdmin.class, this.wiring.admin());
		this.wiring.send(TOPIC, "ready");
		assertThatExceptionOfType(InvalidJobException.class).isThrownBy(() -> admin.countKept(TOPIC, JobState.READY))
			.withMessageContaining("READY");
	}

	@Test
	void actingAsChecksTheActorAndReturnsTheAdminItself() {
		DelayQueueAdmin admin = onlyAbstract(DelayQueueAdmin.class, this.wiring.admin());
		assertThat(admin.actingAs("tool")).isSameAs(admin);
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> admin.actingAs(" "));
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> admin.actingAs("a".repeat(65)));
	}

	@Test
	void sendAllWithResultsTellsWrittenAndRejectedJobsOfRejectingRequests() {
		DelayQueueOperations operations = onlyAbstract(DelayQueueOperations.class, this.wiring.template());
		this.wiring.send(TOPIC, "taken");

		List<SendResult> results = operations.sendAllWithResults(List.of(request("new-1"),
				JobRequest.builder(TOPIC, "generated").build(), request("taken"), request("new-2")));

		assertThat(results).extracting(SendResult::outcome)
			.containsExactly(SendResult.Outcome.WRITTEN, SendResult.Outcome.WRITTEN, SendResult.Outcome.REJECTED,
					SendResult.Outcome.WRITTEN);
		assertThat(results).extracting(SendResult::jobId).contains("new-1", "taken", "new-2");
		String generated = results.get(1).jobId();
		assertThat(this.wiring.template().find(TOPIC, generated)).isPresent();
		assertThat(operations.sendAllWithResults(List.of(request("new-3"))))
			.containsExactly(new SendResult(TOPIC, "new-3", SendResult.Outcome.WRITTEN));
	}

	@Test
	void sendAllWithResultsRefusesBeforeWritingWhatItCannotTell() {
		DelayQueueOperations operations = onlyAbstract(DelayQueueOperations.class, this.wiring.template());

		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> operations.sendAllWithResults(List.of(request("first"),
					JobRequest.builder(TOPIC, "p").id("kept").ifPending(IfPending.KEEP).build())))
			.withMessageContaining("KEEP")
			.withMessageContaining("nothing was sent");
		assertThat(this.wiring.template().find(TOPIC, "first")).isEmpty();
	}

	private JobRequest request(String id) {
		return JobRequest.builder(TOPIC, "payload of " + id).id(id).build();
	}

	private void finish(int count) {
		List<JobRequest> requests = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			requests.add(JobRequest.builder(TOPIC, "p").build());
		}
		this.wiring.template().sendAll(requests);
		List<ClaimedJob> claimed = this.wiring.claims().claim(TOPIC, null, count, Duration.ofMinutes(1)).jobs();
		assertThat(claimed).hasSize(count);
		this.wiring.claims().ack(TOPIC, claimed);
	}

	// An implementation of the interface with its abstract methods only: those go to the
	// target, the default ones run as the interface has them.
	@SuppressWarnings("unchecked")
	private static <T> T onlyAbstract(Class<T> type, T target) {
		InvocationHandler handler = (proxy, method, args) -> {
			if (method.isDefault()) {
				return InvocationHandler.invokeDefault(proxy, method, args);
			}
			try {
				return method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		};
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, handler);
	}

}
