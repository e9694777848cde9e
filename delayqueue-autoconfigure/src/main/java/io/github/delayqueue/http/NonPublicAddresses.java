package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Knows the addresses an HTTP callback must not reach unless they are listed explicitly:
 * the machine itself, its link (where cloud metadata services answer), private networks,
 * and addresses that are no single host at all.
 *
 * @author delayqueue contributors
 */
final class NonPublicAddresses {

	private static final Map<IpAddressRange, String> RANGES = new LinkedHashMap<>();

	static {
		// "This network": connecting to 0.0.0.0 reaches the local machine on Linux.
		add("0.0.0.0/8", "unspecified");
		add("10.0.0.0/8", "private");
		add("100.64.0.0/10", "shared (carrier-grade NAT)");
		add("127.0.0.0/8", "loopback");
		add("169.254.0.0/16", "link-local");
		add("172.16.0.0/12", "private");
		// IETF protocol assignments, such as the DS-Lite and NAT64 discovery addresses.
		add("192.0.0.0/24", "IETF protocol assignments");
		add("192.0.2.0/24", "documentation");
		// The deprecated 6to4 relay anycast prefix: whoever announces it nearby answers.
		add("192.88.99.0/24", "6to4 relay anycast");
		add("192.168.0.0/16", "private");
		// Benchmarking networks, which test labs and some VPNs route internally.
		add("198.18.0.0/15", "benchmarking");
		add("198.51.100.0/24", "documentation");
		add("203.0.113.0/24", "documentation");
		add("224.0.0.0/4", "multicast");
		// Reserved, and 255.255.255.255 is the broadcast address.
		add("240.0.0.0/4", "reserved");
		add("::/128", "unspecified");
		add("::1/128", "loopback");
		add("64:ff9b:1::/48", "local-use IPv4/IPv6 translation");
		add("100::/64", "discard-only");
		// Teredo tunnels carry an obfuscated IPv4 address and reach the relay's network.
		add("2001::/32", "Teredo");
		add("2001:2::/48", "benchmarking");
		add("2001:10::/28", "ORCHID");
		add("2001:db8::/32", "documentation");
		add("3fff::/20", "documentation");
		add("5f00::/16", "segment routing (SRv6)");
		add("fe80::/10", "link-local");
		add("fec0::/10", "site-local");
		add("fc00::/7", "unique-local");
		add("ff00::/8", "multicast");
	}

	private NonPublicAddresses() {
	}

	private static void add(String range, String kind) {
		RANGES.put(IpAddressRange.parse(range), kind);
	}

	/**
	 * Return what kind of non-public address an address is.
	 * @param address the address
	 * @return a description such as {@code loopback} or {@code private}, or {@code null}
	 * for a public address
	 */
	static @Nullable String kindOf(InetAddress address) {
		for (Map.Entry<IpAddressRange, String> range : RANGES.entrySet()) {
			if (range.getKey().contains(address)) {
				return range.getValue();
			}
		}
		InetAddress embedded = embeddedIpv4(address);
		if (embedded != null) {
			String kind = kindOf(embedded);
			return (kind != null) ? kind + " (" + embedded.getHostAddress() + " inside an IPv6 address)" : null;
		}
		return null;
	}

	/**
	 * Return the IPv4 address an IPv6 address carries in one of the forms that reach it
	 * (IPv4-mapped, IPv4-compatible, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}).
	 * @param address the address
	 * @return the IPv4 address, or {@code null} if it carries none
	 */
	static @Nullable InetAddress embeddedIpv4(InetAddress address) {
		byte[] bytes = address.getAddress();
		if (bytes.length != 16) {
			return null;
		}
		byte[] ipv4 = null;
		if (isZero(bytes, 0, 10) && ((isByte(bytes[10], 0xff) && isByte(bytes[11], 0xff)) || isZero(bytes, 10, 12))) {
			ipv4 = Arrays.copyOfRange(bytes, 12, 16);
		}
		else if (isByte(bytes[0], 0x00) && isByte(bytes[1], 0x64) && isByte(bytes[2], 0xff) && isByte(bytes[3], 0x9b)
				&& isZero(bytes, 4, 12)) {
			ipv4 = Arrays.copyOfRange(bytes, 12, 16);
		}
		else if (isByte(bytes[0], 0x20) && isByte(bytes[1], 0x02)) {
			ipv4 = Arrays.copyOfRange(bytes, 2, 6);
		}
		if (ipv4 == null) {
			return null;
		}
		try {
			return InetAddress.getByAddress(ipv4);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean isZero(byte[] bytes, int from, int to) {
		for (int i = from; i < to; i++) {
			if (bytes[i] != 0) {
				return false;
			}
		}
		return true;
	}

	private static boolean isByte(byte value, int expected) {
		return (value & 0xff) == expected;
	}

}
