package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.delayqueue.core.RecurringSchedule.Misfire;
import io.github.delayqueue.core.RecurringSchedule.Overlap;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the heartbeat that renews an instance's declared schedules costs Redis, counted in
 * the server's command statistics (commands run inside scripts included): the same for
 * one schedule as for two hundred while nothing changed; the schedules are declared one
 * by one only when they are new to Redis.
 */
@ExtendWith(RedisExtension.class)
class ScheduleRenewalCostTests {

	private static final Pattern CALLS = Pattern.compile("cmdstat_(\\w+):calls=(\\d+)");

	private RedisTestServer server;

	private DelayQueueFixture fixture;

	@BeforeEach
	void setUp(RedisTestServer server) {
		this.server = server;
		this.fixture = new DelayQueueFixture(server);
	}

	@AfterEach
	void tearDown() {
		this.fixture.close();
	}

	@Test
	void aRenewalCostsTheSameForOneScheduleAsForTwoHundred() {
		long one = renewalCommands(1);
		long many = renewalCommands(200);
		assertThat(many).isEqualTo(one);
		assertThat(one).isBetween(1L, 6L);
	}

	@Test
	void declaringSchedulesNewToRedisCostsPerSchedule() {
		this.server.flushAll();
		ScheduleDeclarations declarations = declarations(200);
		resetStatistics();
		assertThat(declarations.declare()).isTrue();
		assertThat(commands()).isGreaterThan(4 * 200);
	}

	// The commands of a renewal, after a first declaration of the schedules.
	private long renewalCommands(int schedules) {
		this.server.flushAll();
		ScheduleDeclarations declarations = declarations(schedules);
		assertThat(declarations.declare()).isTrue();
		resetStatistics();
		assertThat(declarations.declare()).isFalse();
		return commands();
	}

	private ScheduleDeclarations declarations(int count) {
		ScheduleKeys keys = new ScheduleKeys(DelayQueueFixture.PREFIX);
		RedisClock clock = new RedisClock();
		ScheduleStore store = new ScheduleStore(this.fixture.scripts(), keys, this.fixture.codec(),
				this.fixture.jsonMapper(), clock);
		List<ScheduleDefinition> definitions = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			definitions.add(new ScheduleDefinition("yearly-" + i, "renewals", "0 0 0 1 1 *", null, ZoneOffset.UTC, "{}",
					Misfire.FIRE_ONCE, 100, Overlap.ALLOW, true));
		}
		ScheduleDeclarations declarations = new ScheduleDeclarations(store,
				new ScheduleActivator(store, this.fixture.store(), clock),
				new DeclarationRenewals(this.fixture.scripts(), keys, clock, this.fixture.jsonMapper()),
				() -> definitions);
		declarations.setLive(Duration.ofMinutes(1));
		return declarations;
	}

	private void resetStatistics() {
		this.server.command("CONFIG", "RESETSTAT");
	}

	// Every command since the reset but those that read and reset the statistics.
	private long commands() {
		Matcher calls = CALLS.matcher(this.server.command("INFO", "commandstats"));
		long total = 0;
		while (calls.find()) {
			if (!calls.group(1).equals("info") && !calls.group(1).equals("config")) {
				total += Long.parseLong(calls.group(2));
			}
		}
		return total;
	}

}
