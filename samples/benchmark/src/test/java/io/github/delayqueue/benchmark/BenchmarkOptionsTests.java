package io.github.delayqueue.benchmark;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchmarkOptionsTests {

	@Test
	void defaultsToTheFullSizesOfTheIssue() {
		BenchmarkOptions options = BenchmarkOptions.parse();
		assertThat(options.burstJobs()).isEqualTo(100_000);
		assertThat(options.consumers()).isEqualTo(8);
		assertThat(options.lightJobs()).isEqualTo(2_000);
		assertThat(options.lightWindowMillis()).isEqualTo(5_000);
		assertThat(options.growthSizes()).containsExactly(1_000, 100_000, 1_000_000);
		assertThat(options.redisUrl()).isNull();
	}

	@Test
	void quickIsSmallerAndLaterFlagsOverrideIt() {
		BenchmarkOptions options = BenchmarkOptions.parse("--burst", "7", "--quick", "--growth", "10,20", "--redis-url",
				"redis://localhost:6380");
		assertThat(options.burstJobs()).isEqualTo(7);
		assertThat(options.growthSizes()).isEqualTo(List.of(10, 20));
		assertThat(options.enqueueJobs()).isEqualTo(BenchmarkOptions.quick().enqueueJobs());
		assertThat(options.redisUrl()).isEqualTo("redis://localhost:6380");
	}

	@Test
	void measuresCancelLatencyAtOneThousandAndOneMillionReadyJobsUnlessTold() {
		assertThat(BenchmarkOptions.parse().cancelSizes()).containsExactly(1_000, 1_000_000);
		assertThat(BenchmarkOptions.parse().scenarios()).contains("8");
		BenchmarkOptions options = BenchmarkOptions.parse("--scenarios", "8", "--cancel-sizes", "10,20",
				"--cancel-samples", "5");
		assertThat(options.scenarios()).containsExactly("8");
		assertThat(options.cancelSizes()).containsExactly(10, 20);
		assertThat(options.cancelSamples()).isEqualTo(5);
	}

	@Test
	void runsTheClusterComparisonOnlyWhenAsked() {
		assertThat(BenchmarkOptions.parse().scenarios()).doesNotContain(BenchmarkOptions.CLUSTER);
		assertThat(BenchmarkOptions.parse("--cluster", "--burst", "5").scenarios())
			.containsExactly(BenchmarkOptions.CLUSTER);
		assertThat(BenchmarkOptions.parse("--scenarios", "2,cluster").scenarios()).containsExactlyInAnyOrder("2",
				BenchmarkOptions.CLUSTER);
	}

	@Test
	void runsOurClientAsAPlainApplicationUnlessToldToAddActuator() {
		assertThat(BenchmarkOptions.parse().application()).isEqualTo(ApplicationSetup.PLAIN);
		assertThat(BenchmarkOptions.parse("--app", "actuator", "--burst", "5").application())
			.isEqualTo(ApplicationSetup.ACTUATOR);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--app", "tomcat"))
			.withMessageContaining("--app takes plain or actuator");
	}

	@Test
	void warmsUpUntilTheJitSettlesForAtMostThirtyRoundsOrTwoWhenQuick() {
		assertThat(BenchmarkOptions.parse().warmUpRounds()).isEqualTo(30);
		assertThat(BenchmarkOptions.parse("--quick").warmUpRounds()).isEqualTo(2);
		assertThat(BenchmarkOptions.parse("--warm-up-rounds", "5", "--profile").warmUpRounds()).isEqualTo(5);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--warm-up-rounds", "0"))
			.withMessageContaining("--warm-up-rounds");
	}

	@Test
	void runsTheRateLimitScenarioOnlyWhenAskedWithAThousandJobsOrFiveHundredWhenQuick() {
		assertThat(BenchmarkOptions.parse().scenarios()).doesNotContain(RateLimitScenario.NAME);
		assertThat(BenchmarkOptions.parse().limitJobs()).isEqualTo(1_000);
		assertThat(BenchmarkOptions.parse("--quick").limitJobs()).isEqualTo(500);
		BenchmarkOptions options = BenchmarkOptions.parse("--scenarios", "limits", "--limit-jobs", "250", "--profile");
		assertThat(options.scenarios()).containsExactly(RateLimitScenario.NAME);
		assertThat(options.limitJobs()).isEqualTo(250);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--limit-jobs", "none"))
			.withMessageContaining("--limit-jobs");
	}

	@Test
	void profilesTheBurstOnlyWhenAsked() {
		assertThat(BenchmarkOptions.parse("--quick").profile()).isFalse();
		BenchmarkOptions profiled = BenchmarkOptions.parse("--profile", "--burst", "5", "--app", "actuator");
		assertThat(profiled.profile()).isTrue();
		assertThat(profiled.burstJobs()).isEqualTo(5);
		assertThat(profiled.application()).isEqualTo(ApplicationSetup.ACTUATOR);
	}

	@Test
	void refusesUnknownFlagsAndBadSizes() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--fast", "1"))
			.withMessageContaining("Unknown flag --fast");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--burst", "-1"))
			.withMessageContaining("--burst");
	}

	@Test
	void payloadsAreOneHundredBytesAndCarryTheirDueTime() {
		String payload = Payloads.of(1_700_000_000_123L);
		assertThat(payload).hasSize(Payloads.SIZE);
		assertThat(Payloads.dueAt(payload)).isEqualTo(1_700_000_000_123L);
	}

}
