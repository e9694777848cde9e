package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * CIDR range such as {@code 10.0.0.0/8}; each optionally followed by a port
 * ({@code partner.example:8443}, {@code 10.0.0.0/8:8080}, {@code [fd00::1]:9000}). An
 * entry without a port allows only the scheme's default port (80 for http, 443 for
 * https), as an origin does: a listed host's other ports are often its administration
 * interfaces. A callback is allowed when its host and port are listed by name, or its
 * host is an IP address inside a listed address or range with that port, <em>and</em>
 * every address its host resolves to is public or inside a listed address or range with
 * that port. Loopback, link-local, private (RFC 1918 and IPv6 unique-local), shared
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

	// A port after a name, an IPv4 address or range, or a bracketed IPv6 address or
	// range; an IPv6 address without brackets has colons of its own and no port.
	private static final Pattern ENTRY_PORT = Pattern.compile("((?:\\[[^\\]]*\\](?:/\\d+)?)|[^:\\[\\]]*):(\\d{1,5})");

	private final String topic;

	private final List<ListedName> hostNames = new ArrayList<>();

	private final List<ListedRange> addressRanges = new ArrayList<>();

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
	 * Return whether a host is listed for a port: by name, by a matching pattern, or, for
	 * an IP address, by an address or range containing it. The addresses a name resolves
	 * to are not considered here.
	 * @param scheme {@code http} or {@code https}, whose default port an entry without a
	 * port allows
	 * @param host the host name or IP address
	 * @param port the port, or -1 for the scheme's default
	 * @return {@code true} if it is listed
	 */
	public boolean isAllowed(String scheme, String host, int port) {
		int effectivePort = effectivePort(scheme, port);
		int defaultPort = defaultPort(scheme);
		String candidate = HttpCallback.normalizeHost(host);
		InetAddress literal = IpAddressRange.parseLiteral(candidate);
		if (literal != null) {
			return isListed(literal, effectivePort, defaultPort);
		}
		for (ListedName allowed : this.hostNames) {
			if (allowed.matches(candidate) && allowed.allows(effectivePort, defaultPort)) {
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
		URI url = HttpCallback.parse(callback.url());
		if (!isAllowed(url.getScheme(), host, url.getPort())) {
			String kind = (literal != null) ? NonPublicAddresses.kindOf(literal) : null;
			String hostAndPort = hostAndPort(url);
			String portHint = isAllowed(url.getScheme(), host, defaultPort(url.getScheme())) ? "; list '" + hostAndPort
					+ "' to allow that port (an entry without a port allows only the scheme's default)" : "";
			throw new InvalidJobException(
					"HTTP callback host '" + host + "' of " + target(callback) + " is not in " + ALLOWED_HOSTS_PROPERTY
							+ ((kind != null) ? " (a non-public address: " + kind + ")" : "") + portHint);
		}
		return literal;
	}

	// The host as the URL names it, with its port when it is not the scheme's default, so
	// that a message shows what an entry would have to say.
	private static String hostAndPort(URI url) {
		String host = HttpCallback.normalizeHost(url.getHost());
		String shown = host.contains(":") ? "[" + host + "]" : host;
		int port = effectivePort(url.getScheme(), url.getPort());
		return (port == defaultPort(url.getScheme())) ? shown : shown + ":" + port;
	}

	private static int defaultPort(@Nullable String scheme) {
		return "http".equalsIgnoreCase(scheme) ? 80 : 443;
	}

	private static int effectivePort(@Nullable String scheme, int port) {
		return (port == -1) ? defaultPort(scheme) : port;
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
		URI url = HttpCallback.parse(callback.url());
		int port = effectivePort(url.getScheme(), url.getPort());
		boolean literal = IpAddressRange.parseLiteral(host) != null;
		for (InetAddress address : addresses) {
			String kind = NonPublicAddresses.kindOf(address);
			if (kind != null && !isListed(address, port, defaultPort(url.getScheme()))) {
				String where = literal ? address.getHostAddress() + " is"
						: "it resolves to " + address.getHostAddress() + ",";
				throw new InvalidJobException("HTTP callback host '" + host + "' of " + target(callback)
						+ " is refused: " + where + " a non-public address (" + kind + "); list that address, or a "
						+ "CIDR range containing it, in " + ALLOWED_HOSTS_PROPERTY + " to allow it");
			}
		}
	}

	private boolean isListed(InetAddress address, int port, int defaultPort) {
		InetAddress embedded = NonPublicAddresses.embeddedIpv4(address);
		for (ListedRange listed : this.addressRanges) {
			IpAddressRange range = listed.range();
			if ((range.contains(address) || (embedded != null && range.contains(embedded)))
					&& allows(listed.port(), port, defaultPort)) {
				return true;
			}
		}
		return false;
	}

	// An entry's port, -1 when it names none, allows only the scheme's default then.
	private static boolean allows(int listedPort, int port, int defaultPort) {
		return (listedPort == -1) ? port == defaultPort : port == listedPort;
	}

	private static String target(HttpCallback callback) {
		return callback.method() + " " + HttpCallback.describe(callback.url());
	}

	private void addEntry(@Nullable String entry) {
		String text = (entry != null) ? entry.trim().toLowerCase(Locale.ROOT) : "";
		Matcher withPort = ENTRY_PORT.matcher(text);
		int port = -1;
		if (withPort.matches()) {
			text = withPort.group(1);
			port = Integer.parseInt(withPort.group(2));
			if (port < 1 || port > 65535) {
				throw invalidEntry(entry, "port " + port + " is not 1 to 65535");
			}
		}
		if (text.startsWith("[") && text.contains("]/")) {
			text = text.substring(1).replace("]/", "/");
		}
		String normalized = HttpCallback.normalizeHost(text);
		int slash = normalized.indexOf('/');
		if (IpAddressRange.parseLiteral((slash >= 0) ? normalized.substring(0, slash) : normalized) != null) {
			try {
				this.addressRanges.add(new ListedRange(IpAddressRange.parse(normalized), port));
				return;
			}
			catch (IllegalArgumentException ex) {
				throw invalidEntry(entry, ex.getMessage());
			}
		}
		String bare = normalized.startsWith("*.") ? normalized.substring(2) : normalized;
		if (bare.isEmpty() || bare.contains("*") || bare.contains("/") || bare.contains("@") || bare.contains(":")
				|| bare.contains("[") || bare.contains("]")) {
			throw invalidEntry(entry, null);
		}
		this.hostNames.add(new ListedName(normalized, port));
	}

	private static IllegalArgumentException invalidEntry(@Nullable String entry, @Nullable String reason) {
		return new IllegalArgumentException(ALLOWED_HOSTS_PROPERTY + " entry '" + entry + "' must be a host name, a "
				+ "pattern such as *.example.com, an IP address or a CIDR range such as 10.0.0.0/8, without scheme, "
				+ "optionally followed by a port (partner.example:8443, [fd00::1]:9000)"
				+ ((reason != null) ? " (" + reason + ")" : ""));
	}

	// A host name or pattern, and its port, -1 for the scheme's default.
	private record ListedName(String name, int port) {

		boolean matches(String host) {
			return this.name.startsWith("*.") ? host.endsWith(this.name.substring(1)) : host.equals(this.name);
		}

		boolean allows(int port, int defaultPort) {
			return HttpCallbackValidator.allows(this.port, port, defaultPort);
		}

	}

	// An address or range, and its port, -1 for the scheme's default.
	private record ListedRange(IpAddressRange range, int port) {

	}

}
