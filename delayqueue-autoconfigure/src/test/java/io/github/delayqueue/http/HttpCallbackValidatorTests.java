package io.github.delayqueue.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.core.DelayQueueTemplate;
import io.github.delayqueue.core.InvalidJobException;
import io.github.delayqueue.core.TopicStats;
import io.github.delayqueue.test.DelayQueueFixture;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The allow-list of {@link HttpCallbackValidator}, on its own and applied by the template
 * when a job is sent.
 */
@ExtendWith(RedisExtension.class)
class HttpCallbackValidatorTests {

	// What the names of these tests resolve to: no test depends on the machine's DNS.
	private static final Map<String, String> DNS = Map.of("partner.example", "93.184.216.34", "eu.hooks.example",
			"93.184.216.35", "metadata.hooks.example", "169.254.169.254", "intranet.hooks.example", "10.20.30.40",
			"v6.hooks.example", "fd12:3456::1", "internal.example", "10.1.2.3");

	private final HttpCallbackValidator validator = new HttpCallbackValidator("http-callback",
			List.of("partner.example", "*.hooks.example", "10.0.0.7:8080", "[::1]"),
			HttpCallbackValidatorTests::resolve);

	@Test
	void allowsListedHostsInAnyCaseAndSubdomainsOfAWildcard() {
		assertThat(this.validator.isAllowed("https", "partner.example", -1)).isTrue();
		assertThat(this.validator.isAllowed("https", "PARTNER.Example.", 443)).isTrue();
		assertThat(this.validator.isAllowed("http", "eu.hooks.example", -1)).isTrue();
		assertThat(this.validator.isAllowed("http", "10.0.0.7", 8080)).isTrue();
		assertThat(this.validator.isAllowed("https", "[::1]", -1)).isTrue();
	}

	@Test
	void refusesHostsThatOnlyResembleListedOnes() {
		assertThat(this.validator.isAllowed("https", "hooks.example", -1)).isFalse();
		assertThat(this.validator.isAllowed("https", "evilhooks.example", -1)).isFalse();
		assertThat(this.validator.isAllowed("https", "partner.example.evil.example", -1)).isFalse();
		assertThat(this.validator.isAllowed("https", "api.partner.example", -1)).isFalse();
		assertThat(this.validator.isAllowed("http", "10.0.0.8", 8080)).isFalse();
	}

	@Test
	void refusesACallbackToAnUnlistedHostNamingHostAndProperty() {
		HttpCallback callback = HttpCallback.post("https://evil.example/steal?token=secret").body("x").build();

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.validate("http-callback", callback))
			.withMessage("HTTP callback host 'evil.example' of POST https://evil.example/steal?... is not in "
					+ "delayqueue.http-callback.allowed-hosts");
	}

	@Test
	void refusesEveryHostWhenTheListIsEmptyNamingTheProperty() {
		HttpCallbackValidator closed = new HttpCallbackValidator("http-callback", List.of());

		assertThat(closed.allowsNoHost()).isTrue();
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> closed.validate("http-callback", HttpCallback.get("https://partner.example/").build()))
			.withMessage("HTTP callback host 'partner.example' of GET https://partner.example/ is refused: "
					+ "delayqueue.http-callback.allowed-hosts is empty, so callbacks may call no host; "
					+ "list the hosts they may call");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> closed.checkBeforeCall(HttpCallback.get("http://127.0.0.1:8080/").build()))
			.withMessageContaining("delayqueue.http-callback.allowed-hosts is empty");
	}

	@Test
	void refusesLoopbackMetadataAndPrivateAddressesThatAreNotListedSayingWhatTheyAre() {
		Map<String, String> refused = Map.of("http://127.0.0.1/", "loopback", "http://169.254.169.254/latest/",
				"link-local", "http://10.0.0.8/", "private", "http://172.16.0.1/", "private", "http://192.168.1.1/",
				"private", "http://100.64.0.1/", "shared (carrier-grade NAT)", "http://0.0.0.0/", "unspecified",
				"http://[fd00::1]/", "unique-local", "http://[fe80::1]/", "link-local", "http://224.0.0.1/",
				"multicast");
		refused.forEach((url, kind) -> assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.checkAllowed(HttpCallback.get(url).build()))
			.withMessageEndingWith(
					" is not in delayqueue.http-callback.allowed-hosts (a non-public address: " + kind + ")"));
	}

	@Test
	void refusesANameThatResolvesToANonPublicAddressWhateverTheName() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(
					() -> this.validator.checkBeforeCall(HttpCallback.get("http://metadata.hooks.example/").build()))
			.withMessage("HTTP callback host 'metadata.hooks.example' of GET http://metadata.hooks.example/ is "
					+ "refused: it resolves to 169.254.169.254, a non-public address (link-local); list that address, "
					+ "or a CIDR range containing it, in delayqueue.http-callback.allowed-hosts to allow it");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(
					() -> this.validator.checkBeforeCall(HttpCallback.get("http://intranet.hooks.example/").build()))
			.withMessageContaining("it resolves to 10.20.30.40, a non-public address (private)");
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.checkBeforeCall(HttpCallback.get("http://v6.hooks.example/").build()))
			.withMessageContaining("a non-public address (unique-local)");
	}

	@Test
	void refusesANameWhenAnyOfItsAddressesIsNonPublic() {
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("partner.example"),
				(host) -> new InetAddress[] { InetAddress.getByName("93.184.216.34"),
						InetAddress.getByName("127.0.0.1") });

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("https://partner.example/").build()))
			.withMessageContaining("it resolves to 127.0.0.1, a non-public address (loopback)");
	}

	@Test
	void refusesIpv4AddressesHiddenInsideIpv6Ones() throws Exception {
		for (String address : List.of("::ffff:7f00:1", "::7f00:1", "64:ff9b::a9fe:a9fe", "2002:a00:1::1")) {
			byte[] bytes = InetAddress.getByName(address).getAddress();
			// Inet6Address keeps an IPv4-mapped address in its IPv6 form, as DNS may
			// hand it over.
			InetAddress ipv6 = Inet6Address.getByAddress(null, (bytes.length == 16) ? bytes : mapped(bytes), -1);
			HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("partner.example"),
					(host) -> new InetAddress[] { ipv6 });

			assertThatExceptionOfType(InvalidJobException.class).as(address)
				.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("https://partner.example/").build()))
				.withMessageContaining("inside an IPv6 address)");
		}
	}

	@Test
	void allowsNamesThatResolveToPublicAddressesAndReturnsThemForTheCall() throws Exception {
		assertThat(this.validator.checkBeforeCall(HttpCallback.get("https://eu.hooks.example/").build()))
			.containsExactly(InetAddress.getByName("93.184.216.35"));
		assertThat(this.validator.checkBeforeCall(HttpCallback.get("http://10.0.0.7:8080/").build()))
			.containsExactly(InetAddress.getByName("10.0.0.7"));
	}

	@Test
	void doesNotResolveHostNamesWhenAJobIsSent() {
		AtomicInteger lookups = new AtomicInteger();
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("partner.example"),
				(host) -> {
					lookups.incrementAndGet();
					return resolve(host);
				});

		validator.validate("http-callback", HttpCallback.get("https://partner.example/").build());

		assertThat(lookups).hasValue(0);
		validator.checkBeforeCall(HttpCallback.get("https://partner.example/").build());
		assertThat(lookups).hasValue(1);
	}

	@Test
	void allowsNonPublicAddressesListedAsAnAddressOrARange() {
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback",
				List.of("internal.example:8080", "10.0.0.0/8:8080", "127.0.0.1:8080", "[fd00::]/8"),
				HttpCallbackValidatorTests::resolve);

		assertThatNoException()
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://internal.example:8080/").build()));
		assertThatNoException()
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://10.200.0.1:8080/").build()));
		assertThatNoException()
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://127.0.0.1:8080/").build()));
		assertThatNoException()
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://[fd00::5]/").build()));
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://127.0.0.2/").build()))
			.withMessageContaining("is not in delayqueue.http-callback.allowed-hosts (a non-public address: loopback)");
	}

	@Test
	void aRangeAllowsAddressesButNoNames() {
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("10.0.0.0/8"),
				HttpCallbackValidatorTests::resolve);

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> validator.checkAllowed(HttpCallback.get("http://internal.example/").build()))
			.withMessageContaining("is not in delayqueue.http-callback.allowed-hosts");
	}

	@Test
	void passesAnUnresolvableNameWhenSentButRetriesItBeforeTheCall() {
		HttpCallback callback = HttpCallback.post("https://unknown.hooks.example/x?token=secret").body("x").build();

		assertThatNoException().isThrownBy(() -> this.validator.checkAllowed(callback));
		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.validator.checkBeforeCall(callback))
			.withMessage("POST https://unknown.hooks.example/x?... failed: host 'unknown.hooks.example' cannot be "
					+ "resolved")
			.satisfies((ex) -> assertThat(ex.getStatusCode()).isZero());
	}

	@Test
	void refusesOtherPayloadsOnTheCallbackTopicOnly() {
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.validate("http-callback", "https://partner.example/"))
			.withMessage("Topic 'http-callback' takes io.github.delayqueue.http.HttpCallback payloads, "
					+ "not java.lang.String");
		assertThatNoException().isThrownBy(() -> this.validator.validate("orders", "anything"));
	}

	@Test
	void anEntryWithoutAPortAllowsOnlyTheDefaultPortOfTheScheme() {
		assertThatNoException()
			.isThrownBy(() -> this.validator.checkAllowed(HttpCallback.get("https://partner.example:443/").build()));
		assertThatNoException()
			.isThrownBy(() -> this.validator.checkAllowed(HttpCallback.get("http://partner.example/").build()));
		for (String url : List.of("https://partner.example:8443/", "http://partner.example:443/",
				"https://partner.example:80/", "https://eu.hooks.example:22/")) {
			assertThatExceptionOfType(InvalidJobException.class).as(url)
				.isThrownBy(() -> this.validator.checkAllowed(HttpCallback.get(url).build()))
				.withMessageContaining("is not in delayqueue.http-callback.allowed-hosts")
				.withMessageContaining("an entry without a port allows only the scheme's default");
		}
		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> this.validator.checkAllowed(HttpCallback.get("https://partner.example:8443/").build()))
			.withMessage("HTTP callback host 'partner.example' of GET https://partner.example:8443/ is not in "
					+ "delayqueue.http-callback.allowed-hosts; list 'partner.example:8443' to allow that port (an "
					+ "entry without a port allows only the scheme's default)");
	}

	@Test
	void anEntryWithAPortAllowsThatPortOnly() {
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("partner.example:8443",
				"*.hooks.example:9000", "10.0.0.0/8:8080", "[fd00::1]:9443", "[fd00::]/8:7000"),
				HttpCallbackValidatorTests::resolve);

		for (String url : List.of("https://partner.example:8443/", "http://eu.hooks.example:9000/",
				"http://10.1.2.3:8080/", "https://[fd00::1]:9443/", "http://[fd00::7]:7000/")) {
			assertThatNoException().as(url).isThrownBy(() -> validator.checkAllowed(HttpCallback.get(url).build()));
		}
		for (String url : List.of("https://partner.example/", "http://partner.example:8080/",
				"http://eu.hooks.example/", "http://10.1.2.3/", "http://10.1.2.3:8081/", "https://[fd00::1]/",
				"http://[fd00::7]:7001/")) {
			assertThatExceptionOfType(InvalidJobException.class).as(url)
				.isThrownBy(() -> validator.checkAllowed(HttpCallback.get(url).build()))
				.withMessageContaining("is not in delayqueue.http-callback.allowed-hosts");
		}
	}

	@Test
	void aNameListedWithAPortResolvingToAListedRangeNeedsThePortInBothEntries() {
		HttpCallbackValidator validator = new HttpCallbackValidator("http-callback",
				List.of("internal.example:8080", "10.0.0.0/8"), HttpCallbackValidatorTests::resolve);

		assertThatExceptionOfType(InvalidJobException.class)
			.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("http://internal.example:8080/").build()))
			.withMessageContaining("it resolves to 10.1.2.3, a non-public address (private)");
		HttpCallbackValidator both = new HttpCallbackValidator("http-callback",
				List.of("internal.example:8080", "10.0.0.0/8:8080"), HttpCallbackValidatorTests::resolve);
		assertThat(both.checkBeforeCall(HttpCallback.get("http://internal.example:8080/").build()))
			.extracting(InetAddress::getHostAddress)
			.containsExactly("10.1.2.3");
	}

	@Test
	void refusesANameThatResolvesToASpecialPurposeAddress() {
		for (String address : List.of("198.18.0.1", "198.19.255.254", "192.0.0.8", "192.0.2.1",
				"2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:db8::1")) {
			HttpCallbackValidator validator = new HttpCallbackValidator("http-callback", List.of("partner.example"),
					(host) -> new InetAddress[] { InetAddress.getByName(address) });

			assertThatExceptionOfType(InvalidJobException.class).as(address)
				.isThrownBy(() -> validator.checkBeforeCall(HttpCallback.get("https://partner.example/").build()))
				.withMessageContaining("a non-public address (");
		}
	}

	@Test
	void refusesAllowListEntriesThatAreNotHosts() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("https://partner.example")))
			.withMessageContaining("delayqueue.http-callback.allowed-hosts entry 'https://partner.example'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("partner.example:0")))
			.withMessageContaining("port 0 is not 1 to 65535");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("partner.example:http")));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("partner.example:8443:1")));
		assertThatIllegalArgumentException().isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("*")));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("10.0.0.0/33")))
			.withMessageContaining("entry '10.0.0.0/33'")
			.withMessageContaining("'33' is not a prefix length from 0 to 32");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new HttpCallbackValidator("http-callback", List.of("fd00::/x")));
	}

	@Test
	void theTemplateRefusesARefusedHostBeforeWritingAnything(RedisTestServer server) {
		try (DelayQueueFixture fixture = new DelayQueueFixture(server)) {
			DelayQueueTemplate template = fixture.template();
			template.setPayloadValidators(List.of(this.validator));

			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> template.send("http-callback", HttpCallback.get("https://evil.example/").build(),
						Duration.ofMinutes(5)))
				.withMessageContaining("'evil.example'");
			assertThat(fixture.admin().stats("http-callback")).isEqualTo(new TopicStats("http-callback", 0, 0, 0, 0));

			assertThatExceptionOfType(InvalidJobException.class)
				.isThrownBy(() -> template.send("http-callback",
						HttpCallback.get("http://169.254.169.254/latest/meta-data/").build(), Duration.ofMinutes(5)))
				.withMessageContaining("non-public address: link-local");
			assertThat(fixture.admin().stats("http-callback")).isEqualTo(new TopicStats("http-callback", 0, 0, 0, 0));

			String id = template.send("http-callback", HttpCallback.get("https://partner.example/").build(),
					Duration.ofMinutes(5));
			assertThat(template.find("http-callback", id)).isPresent();
		}
	}

	private static InetAddress[] resolve(String host) throws UnknownHostException {
		String address = DNS.get(host);
		if (address == null) {
			throw new UnknownHostException(host);
		}
		return new InetAddress[] { InetAddress.getByName(address) };
	}

	private static byte[] mapped(byte[] ipv4) {
		byte[] bytes = new byte[16];
		bytes[10] = (byte) 0xff;
		bytes[11] = (byte) 0xff;
		System.arraycopy(ipv4, 0, bytes, 12, 4);
		return bytes;
	}

}
