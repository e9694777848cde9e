package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;

/**
 * How the application that runs our starter in the benchmark is set up. Both come from
 * one jar, so the plain one leaves out what Actuator would add.
 */
enum ApplicationSetup {

	/**
	 * An application without Actuator: no meters, no observation registry, no web server.
	 */
	PLAIN,

	/**
	 * An application with Actuator and a web server, as users run it: a meter registry,
	 * an observation registry (so Lettuce observes each command; the starter observes its
	 * sends and handler runs only with {@code -Ddelayqueue.observation.enabled=true}, as
	 * nothing traces), the health and {@code delayqueue} endpoints on a random port.
	 */
	ACTUATOR;

	// Jars whose auto-configurations an application without Actuator does not have.
	private static final List<String> ACTUATOR_JARS = List.of("/spring-boot-actuator", "/spring-boot-micrometer-",
			"/spring-boot-health");

	static ApplicationSetup parse(String value) {
		for (ApplicationSetup setup : values()) {
			if (setup.name().toLowerCase(Locale.ROOT).equals(value)) {
				return setup;
			}
		}
		throw new IllegalArgumentException("Flag --app takes plain or actuator, not '" + value + "'");
	}

	void apply(SpringApplication application, Map<String, Object> properties) {
		if (this == ACTUATOR) {
			application.setWebApplicationType(WebApplicationType.SERVLET);
			properties.put("server.port", "0");
			properties.put("management.endpoints.web.exposure.include", "health,metrics,delayqueue");
		}
		else {
			application.setWebApplicationType(WebApplicationType.NONE);
			properties.put("spring.autoconfigure.exclude", String.join(",", actuatorAutoConfigurations()));
		}
	}

	private static Set<String> actuatorAutoConfigurations() {
		Set<String> names = new LinkedHashSet<>();
		try {
			for (URL imports : Collections.list(ApplicationSetup.class.getClassLoader()
				.getResources("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))) {
				String location = imports.toString();
				if (ACTUATOR_JARS.stream().noneMatch(location::contains)) {
					continue;
				}
				try (InputStream in = imports.openStream()) {
					for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
						String name = line.strip();
						if (!name.isEmpty() && !name.startsWith("#")) {
							names.add(name);
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot list the auto-configurations to leave out", ex);
		}
		return names;
	}

}
