package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which addresses {@link NonPublicAddresses} keeps callbacks away from, at the edges of
 * each range.
 */
class NonPublicAddressesTests {

	@ParameterizedTest
	@CsvSource({ "0.0.0.0, unspecified", "0.255.255.255, unspecified", "10.0.0.0, private", "10.255.255.255, private",
			"100.64.0.0, shared (carrier-grade NAT)", "100.127.255.255, shared (carrier-grade NAT)",
			"127.0.0.1, loopback", "127.255.255.254, loopback", "169.254.169.254, link-local", "172.16.0.0, private",
			"172.31.255.255, private", "192.168.0.1, private", "224.0.0.1, multicast", "239.255.255.255, multicast",
			"240.0.0.1, reserved", "255.255.255.255, reserved", "::, unspecified", "::1, loopback",
			"fe80::1, link-local", "febf::1, link-local", "fec0::1, site-local", "fc00::1, unique-local",
			"fdff::1, unique-local", "ff02::1, multicast", "198.18.0.1, benchmarking", "198.19.255.255, benchmarking",
			"192.0.0.8, IETF protocol assignments", "192.0.0.170, IETF protocol assignments",
			"192.0.2.1, documentation", "198.51.100.7, documentation", "203.0.113.9, documentation",
			"192.88.99.1, 6to4 relay anycast", "2001::1, Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2, Teredo",
			"2001:2::1, benchmarking", "2001:10::1, ORCHID", "2001:db8::1, documentation", "3fff::1, documentation",
			"100::1, discard-only", "64:ff9b:1::a00:1, local-use IPv4/IPv6 translation",
			"5f00::1, segment routing (SRv6)" })
	void namesTheKindOfANonPublicAddress(String address, String kind) throws UnknownHostException {
		assertThat(NonPublicAddresses.kindOf(InetAddress.getByName(address))).isEqualTo(kind);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1.1.1.1", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
			"128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255",
			"192.169.0.0", "223.255.255.255", "198.17.255.255", "198.20.0.0", "192.0.1.0", "2001:1::1",
			"2001:4860:4860::8888", "2606:4700::1111", "fbff::1", "64:ff9b::808:808", "2002:808:808::1" })
	void letsPublicAddressesThrough(String address) throws UnknownHostException {
		assertThat(NonPublicAddresses.kindOf(InetAddress.getByName(address))).isNull();
	}

	@ParameterizedTest
	@CsvSource({ "::7f00:1, loopback (127.0.0.1 inside an IPv6 address)",
			"64:ff9b::a9fe:a9fe, link-local (169.254.169.254 inside an IPv6 address)",
			"2002:c0a8:101::1, private (192.168.1.1 inside an IPv6 address)" })
	void findsIpv4AddressesInsideIpv6Ones(String address, String kind) throws UnknownHostException {
		assertThat(NonPublicAddresses.kindOf(InetAddress.getByName(address))).isEqualTo(kind);
	}

}
