package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * An IP address or a CIDR range ({@code 10.0.0.0/8}, {@code fc00::/7}), parsed without
 * ever asking DNS.
 *
 * @author delayqueue contributors
 */
final class IpAddressRange {

	private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

	private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

	private final byte[] network;

	private final int prefixLength;

	private final String text;

	private IpAddressRange(byte[] network, int prefixLength, String text) {
		this.network = network;
		this.prefixLength = prefixLength;
		this.text = text;
	}

	/**
	 * Parse an address ({@code 127.0.0.1}, {@code ::1}) or a range ({@code 10.0.0.0/8});
	 * host bits of a range are ignored.
	 * @param text the address or range
	 * @return the range
	 * @throws IllegalArgumentException if the text is neither
	 */
	static IpAddressRange parse(String text) {
		int slash = text.indexOf('/');
		String addressText = (slash >= 0) ? text.substring(0, slash) : text;
		InetAddress address = parseLiteral(addressText);
		if (address == null) {
			throw new IllegalArgumentException("'" + addressText + "' is not an IP address");
		}
		byte[] bytes = address.getAddress();
		int bits = bytes.length * 8;
		int prefixLength = bits;
		if (slash >= 0) {
			String prefix = text.substring(slash + 1);
			if (!prefix.matches("\\d{1,3}") || Integer.parseInt(prefix) > bits) {
				throw new IllegalArgumentException("'" + prefix + "' is not a prefix length from 0 to " + bits);
			}
			prefixLength = Integer.parseInt(prefix);
		}
		return new IpAddressRange(bytes, prefixLength, text);
	}

	/**
	 * Return the address a literal IPv4 address in dotted-quad form or a literal IPv6
	 * address stands for, without asking DNS.
	 * @param text the text, IPv6 without brackets
	 * @return the address, or {@code null} if the text is not such a literal
	 */
	static @Nullable InetAddress parseLiteral(String text) {
		try {
			Matcher ipv4 = IPV4.matcher(text);
			if (ipv4.matches()) {
				byte[] bytes = new byte[4];
				for (int i = 0; i < 4; i++) {
					int part = Integer.parseInt(ipv4.group(i + 1));
					if (part > 255) {
						return null;
					}
					bytes[i] = (byte) part;
				}
				return InetAddress.getByAddress(bytes);
			}
			if (IPV6.matcher(text).matches()) {
				// A name with a colon is never looked up: the JDK parses it as an IPv6
				// literal or fails.
				return InetAddress.getByName(text);
			}
			return null;
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	/**
	 * Return whether an address lies in this range; IPv4 and IPv6 addresses never match
	 * each other.
	 * @param address the address
	 * @return {@code true} if it does
	 */
	boolean contains(InetAddress address) {
		byte[] bytes = address.getAddress();
		if (bytes.length != this.network.length) {
			return false;
		}
		int fullBytes = this.prefixLength / 8;
		for (int i = 0; i < fullBytes; i++) {
			if (bytes[i] != this.network[i]) {
				return false;
			}
		}
		int remainingBits = this.prefixLength % 8;
		if (remainingBits == 0) {
			return true;
		}
		int mask = (0xff << (8 - remainingBits)) & 0xff;
		return (bytes[fullBytes] & mask) == (this.network[fullBytes] & mask);
	}

	@Override
	public String toString() {
		return this.text;
	}

}
