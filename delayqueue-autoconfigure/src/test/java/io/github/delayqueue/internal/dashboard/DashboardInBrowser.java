package io.github.delayqueue.internal.dashboard;

import java.util.ArrayList;
import java.util.List;

import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a browser test of the dashboard stands on: a flushed Redis, headless Chromium, and
 * the applications the test starts with their dashboard on a random port, all closed
 * after each test. Register it with {@code @RegisterExtension} beside
 * {@code @ExtendWith(RedisExtension.class)}.
 */
final class DashboardInBrowser implements BeforeEachCallback, AfterEachCallback {

	private final Class<?> application;

	private final List<String> properties;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private RedisTestServer server;

	private HeadlessChromium browser;

	/**
	 * Create the fixture.
	 * @param application the application's configuration
	 * @param properties properties every start of the application has
	 */
	DashboardInBrowser(Class<?> application, String... properties) {
		this.application = application;
		this.properties = List.of(properties);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.server = RedisExtension.server();
		this.server.flushAll();
		this.browser = HeadlessChromium.start();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (this.browser != null) {
			this.browser.close();
		}
		this.contexts.forEach(ConfigurableApplicationContext::close);
		this.contexts.clear();
	}

	/**
	 * Return the browser of the test.
	 * @return the browser
	 */
	HeadlessChromium browser() {
		return this.browser;
	}

	/**
	 * Start the application with its dashboard.
	 * @param properties properties of this start, on top of those of every start
	 * @return the dashboard's address
	 */
	String start(String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "delayqueue.dashboard.enabled=true"));
		all.addAll(this.properties);
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(this.application)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		String contextPath = context.getEnvironment().getProperty("server.servlet.context-path", "");
		return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port") + contextPath
				+ "/delayqueue";
	}

	/**
	 * Return a bean of the application started first.
	 * @param <T> the bean's type
	 * @param type the bean's type
	 * @return the bean
	 */
	<T> T bean(Class<T> type) {
		return this.contexts.get(0).getBean(type);
	}

}
