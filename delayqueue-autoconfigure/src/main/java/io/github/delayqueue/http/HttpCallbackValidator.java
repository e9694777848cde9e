package io.github.delayqueue.http;

import java.util.Collection;
import java.util.List;

import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobPayloadValidator;

/**
 * Refuses, when they are sent, HTTP callbacks to hosts outside
 * {@code delayqueue.http-callback.allowed-hosts}, and payloads of the callback topic that
 * are not {@link HttpCallback}s. An entry is a host name or IP address, matched without
 * regard to case, or {@code *.example.com} for any subdomain of {@code example.com} (not
 * {@code example.com} itself); ports are not considered. An empty list allows every host.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackValidator implements JobPayloadValidator {

	private final String topic;

	private final List<String> allowedHosts;

	/**
	 * Create a validator.
	 * @param topic the topic of HTTP callback jobs
	 * @param allowedHosts the hosts callbacks may call; every host when empty
	 * @throws IllegalArgumentException if an entry is not a host name or pattern
	 */
	public HttpCallbackValidator(String topic, Collection<String> allowedHosts) {
		this.topic = topic;
		this.allowedHosts = allowedHosts.stream().map(HttpCallbackValidator::checkEntry).toList();
	}

	@Override
	public void validate(String topic, Object payload) {
		if (payload instanceof HttpCallback callback) {
			checkAllowed(callback);
		}
		else if (this.topic.equals(topic)) {
			// Anything else would be sent unchecked and only fail when it is due.
			throw new InvalidJobException("Topic '" + topic + "' takes " + HttpCallback.class.getName()
					+ " payloads, not " + payload.getClass().getName());
		}
	}

	/**
	 * Check that a callback's host is allowed.
	 * @param callback the callback
	 * @throws InvalidJobException if it is not
	 */
	public void checkAllowed(HttpCallback callback) {
		String host = HttpCallback.hostOf(callback);
		if (!isAllowed(host)) {
			throw new InvalidJobException("HTTP callback host '" + host + "' of " + callback.method() + " "
					+ HttpCallback.describe(callback.url()) + " is not in delayqueue.http-callback.allowed-hosts");
		}
	}

	/**
	 * Return whether a host may be called.
	 * @param host the host name or IP address
	 * @return {@code true} if it is allowed
	 */
	public boolean isAllowed(String host) {
		if (this.allowedHosts.isEmpty()) {
			return true;
		}
		String candidate = HttpCallback.normalizeHost(host);
		for (String allowed : this.allowedHosts) {
			if (allowed.startsWith("*.") ? candidate.endsWith(allowed.substring(1)) : candidate.equals(allowed)) {
				return true;
			}
		}
		return false;
	}

	private static String checkEntry(String entry) {
		String normalized = (entry != null) ? HttpCallback.normalizeHost(entry) : "";
		String bare = normalized.startsWith("*.") ? normalized.substring(2) : normalized;
		if (bare.isEmpty() || bare.contains("*") || bare.contains("/") || bare.contains("@")
				|| (bare.contains(":") && bare.indexOf(':') == bare.lastIndexOf(':'))) {
			throw new IllegalArgumentException("delayqueue.http-callback.allowed-hosts entry '" + entry
					+ "' must be a host name, an IP address or a pattern such as *.example.com, without scheme or port");
		}
		return normalized;
	}

}
