package io.github.delayqueue.internal.dashboard;

import java.time.Duration;
import java.util.List;

import io.github.delayqueue.annotation.DelayedJobListener;
import io.github.delayqueue.core.DelayQueueOperations;
import io.github.delayqueue.core.JobRequest;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard behind the application's login, as docs/dashboard.md sets it up:
 * operators log in, only the role named for it sees payloads, header values, error
 * messages and host names, and actions pass Spring Security's CSRF check, all in a real
 * browser.
 */
@ExtendWith(RedisExtension.class)
class DashboardSecuredBrowserTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private ConfigurableApplicationContext context;

	private HeadlessChromium browser;

	private String page;

	@BeforeEach
	void start(RedisTestServer server) {
		server.flushAll();
		this.browser = HeadlessChromium.start();
		this.context = new SpringApplicationBuilder(SecuredShop.class)
			.properties("server.port=0", "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "delayqueue.dashboard.enabled=true",
					"delayqueue.dashboard.read-only=false", "delayqueue.dashboard.show-payloads=when-authorized",
					"delayqueue.dashboard.roles=OPS_ADMIN")
			// Higher precedence than the test classpath's application.properties, which
			// leaves security out of every other test.
			.run("--spring.autoconfigure.exclude=");
		this.page = "http://localhost:" + this.context.getEnvironment().getRequiredProperty("local.server.port")
				+ "/delayqueue";
	}

	@AfterEach
	void stop() {
		if (this.browser != null) {
			this.browser.close();
		}
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void operatorsLogInAndOnlyTheirAdministratorsSeeValues() throws Exception {
		DelayQueueOperations queue = this.context.getBean(DelayQueueOperations.class);
		queue.send(JobRequest.builder("orders.timeout", new Order(42))
			.id("order-42")
			.header("Authorization", "Bearer partner-secret")
			.delay(Duration.ofHours(2))
			.build());
		String job = this.page + "#/topics/orders.timeout/jobs/order-42";

		logIn("operator");
		this.browser.open(job);
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#job-state")).isEqualTo("delayed");
			assertThat(this.browser.text("#job-payload")).startsWith("Hidden");
			assertThat(this.browser.text("#job-headers")).contains("Authorization").doesNotContain("partner-secret");
		});
		this.browser.screenshot("dashboard-secured-operator");

		this.browser.forgetCookies();
		logIn("admin");
		this.browser.open(job);
		await().atMost(PATIENCE).untilAsserted(() -> {
			assertThat(this.browser.text("#job-payload")).contains("\"number\": 42");
			assertThat(this.browser.text("#job-headers")).contains("Bearer partner-secret");
		});
		this.browser.click("button[data-action='cancel']");
		this.browser.click("button[data-action='cancel-confirm']");
		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(this.browser.text("#notice")).contains("Job order-42 was cancelled"));
		assertThat(queue.find("orders.timeout", "order-42")).isEmpty();
	}

	@Test
	void aUserWithoutTheRoleSeesNoDashboard() {
		logIn("developer");
		this.browser.open(this.page);

		await().atMost(PATIENCE).untilAsserted(() -> assertThat(this.browser.text("body")).contains("403"));
		assertThat(this.browser.all("#lookup")).isEmpty();
	}

	// Spring Security's own login page, which the dashboard's path redirects to.
	private void logIn(String user) {
		this.browser.open(this.page);
		await().atMost(PATIENCE).until(() -> !this.browser.all("input[name='username']").isEmpty());
		this.browser.one("input[name='username']").sendKeys(user);
		this.browser.one("input[name='password']").sendKeys("secret");
		this.browser.click("button[type='submit']");
		await().atMost(PATIENCE).until(() -> this.browser.all("input[name='username']").isEmpty());
	}

	record Order(int number) {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class SecuredShop {

		// The lines of docs/dashboard.md: the dashboard for operators only, behind a
		// login, and the
		// CSRF token in a cookie that the page sends back.
		@Bean
		SecurityFilterChain security(HttpSecurity http) {
			return http
				.authorizeHttpRequests((requests) -> requests.requestMatchers("/delayqueue", "/delayqueue/**")
					.hasRole("OPS")
					.anyRequest()
					.permitAll())
				.formLogin(Customizer.withDefaults())
				.csrf((csrf) -> csrf.spa())
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					List.of(User.withUsername("operator").password("{noop}secret").roles("OPS").build(),
							User.withUsername("admin").password("{noop}secret").roles("OPS", "OPS_ADMIN").build(),
							User.withUsername("developer").password("{noop}secret").roles("USER").build()));
		}

		@Bean
		OrderTimeouts orderTimeouts() {
			return new OrderTimeouts();
		}

	}

	static class OrderTimeouts {

		@DelayedJobListener("orders.timeout")
		void close(Order order) {
		}

	}

}
