package io.github.delayqueue.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The {@code User-Agent} of HTTP callbacks: {@code delayqueue/<version>}, so that a
 * partner can tell the calls apart and name the version in a report. The version comes
 * from a resource the build writes.
 *
 * @author delayqueue contributors
 */
final class UserAgent {

	private static final String VERSION_RESOURCE = "/META-INF/delayqueue/version.properties";

	/**
	 * The {@code User-Agent} sent unless a callback sets its own.
	 */
	static final String DEFAULT = "delayqueue" + version();

	private UserAgent() {
	}

	private static String version() {
		try (InputStream in = UserAgent.class.getResourceAsStream(VERSION_RESOURCE)) {
			if (in == null) {
				return "";
			}
			Properties properties = new Properties();
			properties.load(in);
			String version = properties.getProperty("version", "");
			return (version.isBlank() || version.contains("${")) ? "" : "/" + version.trim();
		}
		catch (IOException ex) {
			return "";
		}
	}

}
