package io.github.delayqueue.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the {@code delayqueue} Actuator endpoint, beside Boot's own
 * {@code management.endpoint.delayqueue.access}.
 *
 * @author delayqueue contributors
 */
@ConfigurationProperties("management.endpoint.delayqueue")
public class DelayQueueEndpointProperties {

	/**
	 * When to show job payloads and header values, which may hold credentials.
	 */
	private Show showValues = Show.NEVER;

	/**
	 * Roles that may see payloads and header values when show-values is when-authorized;
	 * empty for any authenticated user.
	 */
	private final Set<String> roles = new LinkedHashSet<>();

	/**
	 * Origins (scheme://host[:port]) the endpoint's writes may be sent to and come from;
	 * empty for the one each request was sent to, where writes to a host name need a
	 * logged-in user.
	 */
	private final List<String> allowedOrigins = new ArrayList<>();

	public Show getShowValues() {
		return this.showValues;
	}

	public void setShowValues(Show showValues) {
		this.showValues = showValues;
	}

	public Set<String> getRoles() {
		return this.roles;
	}

	public List<String> getAllowedOrigins() {
		return this.allowedOrigins;
	}

}
