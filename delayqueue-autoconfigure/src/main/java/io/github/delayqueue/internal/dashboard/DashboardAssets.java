package io.github.delayqueue.internal.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import org.springframework.core.io.ClassPathResource;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The page's static files, served from the jar under {@code <path>/assets}: its own
 * script modules and stylesheet, and the chart library from its WebJar, so that the page
 * loads nothing from another host.
 *
 * @author delayqueue contributors
 */
final class DashboardAssets {

	private static final String OWN = "META-INF/delayqueue/dashboard/";

	private static final String CHART_LIBRARY = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

	private DashboardAssets() {
	}

	/**
	 * Return the routes of the static files under a dashboard path.
	 * @param path the dashboard's path
	 * @return the routes
	 * @throws IllegalStateException if the chart library's WebJar is missing
	 */
	static RouterFunction<ServerResponse> routes(String path) {
		String chartFiles = "META-INF/resources/webjars/uplot/" + chartLibraryVersion() + "/dist/";
		return RouterFunctions.resources(path + "/assets/uplot/**", new ClassPathResource(chartFiles))
			.and(RouterFunctions.resources(path + "/assets/**", new ClassPathResource(OWN)));
	}

	// The WebJar's folder names its version; reading it keeps an upgrade to one pom line.
	private static String chartLibraryVersion() {
		ClassPathResource properties = new ClassPathResource(CHART_LIBRARY);
		try (InputStream in = properties.getInputStream()) {
			Properties loaded = new Properties();
			loaded.load(in);
			return loaded.getProperty("version");
		}
		catch (IOException ex) {
			throw new IllegalStateException("The dashboard's chart library org.webjars.npm:uplot is not on the "
					+ "classpath; it comes with the delayqueue starter, so check that it was not excluded", ex);
		}
	}

}
