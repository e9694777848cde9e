package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.JobPayloadValidator;
import org.jspecify.annotations.Nullable;

/**
 * Decides where HTTP callbacks may go, from
 * {@code delayqueue.http-callback.allowed-hosts}: applied to every job when it is sent,
 * without resolving its host, and by {@link HttpCallbackListener} again just before the
 * call, with the host resolved then; the call connects only to the addresses that this
 * last check passed. Also refuses payloads of the callback topic that are not
 * {@link HttpCallback}s.
 * <p>
 * An entry is a host name, matched without regard to case; {@code *.example.com} for any
 * subdomain of {@code example.com} (not {@code example.com} itself); an IP address; or a
 * CIDR range such as {@code 10.0.0.0/8}. Ports are not considered. A callback is allowed
 * when its host is listed by name, or is an IP address inside a listed address or range,
 * <em>and</em> every address its host resolves to is public or inside a listed address or
 * range. Loopback, link-local, private (RFC 1918 and IPv6 unique-local), shared
 * (100.64.0.0/10), unspecified, multicast and reserved addresses are thus refused unless
 * listed as addresses, whatever name leads to them. An empty list allows no host at all.
 *
 * @author delayqueue contributors
 */
public class HttpCallbackValidator implements JobPayloadValidator {

	/**
	 * The property that lists where callbacks may go.
	 */
	public static final String ALLOWED_HOSTS_PROPERTY = "delayqueue.http-callback.allowed-hosts";

	private final String topic;

	private final List<String> hostNames = new ArrayList<>();

	private final List<IpAddressRange> addressRanges = new ArrayList<>();

	private final HostResolver resolver;

	/**
	 * Create a validator that resolves host names with the JVM.
	 * @param topic the topic of HTTP callback jobs
	 * @param allowedHosts where callbacks may go; nowhere when empty
	 * @throws IllegalArgumentException if an entry is not a host name, pattern, address
	 * or range
	 */
	public HttpCallbackValidator(String topic, Collection<String> allowedHosts) {
		this(topic, allowedHosts, HostResolver.SYSTEM);
	}

	/**
	 * Create a validator.
	 * @param topic the topic of HTTP callback jobs
	 * @param allowedHosts where callbacks may go; nowhere when empty
	 * @param resolver turns host names into the addresses that are checked
	 * @throws IllegalArgumentException if an entry is not a host name, pattern, address
	 * or range
	 */
	public HttpCallbackValidator(String topic, Collection<String> allowedHosts, HostResolver resolver) {
		this.topic = topic;
		this.resolver = resolver;
		for (String entry : allowedHosts) {
			addEntry(entry);
		}
	}

	/**
	 * Return whether the allow-list is empty, so that every callback is refused.
	 * @return {@code true} if no host may be called
	 */
	public boolean allowsNoHost() {
		return this.hostNames.isEmpty() && this.addressRanges.isEmpty();
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
	 * Check, when a callback is sent, that its host is listed and, for an IP address in
	 * the URL, that the address may be called. A host name is not resolved here: its
	 * addresses are checked when the callback is due, by {@link #checkBeforeCall}, which
	 * is the check that decides, so no DNS lookup holds up the sender.
	 * @param callback the callback
	 * @throws InvalidJobException if it may not
	 */
	public void checkAllowed(HttpCallback callback) {
		InetAddress literal = checkListed(callback);
		if (literal != null) {
			checkAddresses(callback, List.of(literal));
		}
	}

	/**
	 * Check, just before a callback is performed, that it may go where it points, with
	 * its host resolved now, and return the addresses that passed: the call must connect
	 * to one of these and to no address that a second lookup might return.
	 * @param callback the callback
	 * @return the addresses the call may connect to, at least one
	 * @throws InvalidJobException if it may not
	 * @throws HttpCallbackException if its host cannot be resolved now, which a later
	 * attempt may cure
	 */
	public List<InetAddress> checkBeforeCall(HttpCallback callback) {
		InetAddress literal = checkListed(callback);
		List<InetAddress> addresses = (literal != null) ? List.of(literal) : resolve(callback);
		checkAddresses(callback, addresses);
		return addresses;
	}

	/**
	 * Return whether a host is listed: by name, by a matching pattern, or, for an IP
	 * address, by an address or range containing it. The addresses a name resolves to are
	 * not considered here.
	 * @param host the host name or IP address
	 * @return {@code true} if it is listed
	 */
	public boolean isAllowed(String host) {
		String candidate = HttpCallback.normalizeHost(host);
		InetAddress literal = IpAddressRange.parseLiteral(candidate);
		if (literal != null) {
			return isListed(literal);
		}
		for (String allowed : this.hostNames) {
			if (allowed.startsWith("*.") ? candidate.endsWith(allowed.substring(1)) : candidate.equals(allowed)) {
				return true;
			}
		}
		return false;
	}

	// The URL's IP address, or null for a host name.
	private @Nullable InetAddress checkListed(HttpCallback callback) {
		String host = HttpCallback.hostOf(callback);
		if (allowsNoHost()) {
			throw new InvalidJobException("HTTP callback host '" + host + "' of " + target(callback) + " is refused: "
					+ ALLOWED_HOSTS_PROPERTY
					+ " is empty, so callbacks may call no host; list the hosts they may call");
		}
		InetAddress literal = IpAddressRange.parseLiteral(host);
		if (!isAllowed(host)) {
			String kind = (literal != null) ? NonPublicAddresses.kindOf(literal) : null;
			throw new InvalidJobException("HTTP callback host '" + host + "' of " + target(callback) + " is not in "
					+ ALLOWED_HOSTS_PROPERTY + ((kind != null) ? " (a non-public address: " + kind + ")" : ""));
		}
		return literal;
	}

	private List<InetAddress> resolve(HttpCallback callback) {
		String host = HttpCallback.hostOf(callback);
		InetAddress[] addresses;
		try {
			addresses = this.resolver.resolve(host);
		}
		catch (UnknownHostException ex) {
			addresses = null;
		}
		if (addresses == null || addresses.length == 0) {
			throw new HttpCallbackException(target(callback) + " failed: host '" + host + "' cannot be resolved", 0,
					null);
		}
		return List.of(addresses);
	}

	private void checkAddresses(HttpCallback callback, List<InetAddress> addresses) {
		String host = HttpCallback.hostOf(callback);
		boolean literal = IpAddressRange.parseLiteral(host) != null;
		for (InetAddress address : addresses) {
			String kind = NonPublicAddresses.kindOf(address);
			if (kind != null && !isListed(address)) {
				String where = literal ? address.getHostAddress() + " is"
						: "it resolves to " + address.getHostAddress() + ",";
				throw new InvalidJobException("HTTP callback host '" + host + "' of " + target(callback)
						+ " is refused: " + where + " a non-public address (" + kind + "); list that address, or a "
						+ "CIDR range containing it, in " + ALLOWED_HOSTS_PROPERTY + " to allow it");
			}
		}
	}

	private boolean isListed(InetAddress address) {
		InetAddress embedded = NonPublicAddresses.embeddedIpv4(address);
		for (IpAddressRange range : this.addressRanges) {
			if (range.contains(address) || (embedded != null && range.contains(embedded))) {
				return true;
			}
		}
		return false;
	}

	private static String target(HttpCallback callback) {
		return callback.method() + " " + HttpCallback.describe(callback.url());
	}

	private void addEntry(@Nullable String entry) {
		String normalized = (entry != null) ? HttpCallback.normalizeHost(entry) : "";
		int slash = normalized.indexOf('/');
		if (IpAddressRange.parseLiteral((slash >= 0) ? normalized.substring(0, slash) : normalized) != null) {
			try {
				this.addressRanges.add(IpAddressRange.parse(normalized));
				return;
			}
			catch (IllegalArgumentException ex) {
				throw invalidEntry(entry, ex.getMessage());
			}
		}
		String bare = normalized.startsWith("*.") ? normalized.substring(2) : normalized;
		if (bare.isEmpty() || bare.contains("*") || bare.contains("/") || bare.contains("@") || bare.contains(":")) {
			throw invalidEntry(entry, null);
		}
		this.hostNames.add(normalized);
	}

	private static IllegalArgumentException invalidEntry(@Nullable String entry, @Nullable String reason) {
		return new IllegalArgumentException(ALLOWED_HOSTS_PROPERTY + " entry '" + entry + "' must be a host name, a "
				+ "pattern such as *.example.com, an IP address or a CIDR range such as 10.0.0.0/8, without scheme "
				+ "or port" + ((reason != null) ? " (" + reason + ")" : ""));
	}

}
