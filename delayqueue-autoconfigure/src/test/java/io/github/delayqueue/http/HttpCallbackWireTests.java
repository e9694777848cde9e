package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.delayqueue.test.HttpTestServer;
import io.github.delayqueue.test.HttpTestServer.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the built-in listener sends and where it connects, seen from a real HTTP server,
 * with host names resolved by a stand-in for DNS that answers differently each time, as a
 * rebinding attacker's does.
 */
class HttpCallbackWireTests {

	private final HttpTestServer server = HttpTestServer.start();

	private final AtomicInteger lookups = new AtomicInteger();

	private final HttpCallbackListener listener = new HttpCallbackListener(
			new HttpCallbackValidator("http-callback",
					List.of("callback.test:" + this.server.port(), "127.0.0.1:" + this.server.port()), this::rebinding),
			new HttpCallbackExecutor());

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void connectsToTheAddressItCheckedWithoutAskingDnsAgain() {
		this.listener.call(HttpCallback.get(this.server.url("callback.test", "/pinned")).build());

		assertThat(this.server.requests("/pinned")).singleElement()
			.satisfies(
					(request) -> assertThat(request.header("Host")).isEqualTo("callback.test:" + this.server.port()));
		assertThat(this.lookups).hasValue(1);
	}

	@Test
	void speaksHttp11WithoutAskingToUpgradeAndNamesTheLibrary() {
		this.listener.call(HttpCallback.post(this.server.url("/wire")).body("{}").build());

		Request request = this.server.requests("/wire").get(0);
		assertThat(request.protocol()).isEqualTo("HTTP/1.1");
		assertThat(request.header("Upgrade")).isNull();
		assertThat(request.header("HTTP2-Settings")).isNull();
		assertThat(request.header("User-Agent")).startsWith("delayqueue/");
	}

	@Test
	void sendsTheUserAgentOfTheCallback() {
		this.listener.call(HttpCallback.get(this.server.url("/agent")).header("User-Agent", "shop/2.1").build());

		assertThat(this.server.requests("/agent").get(0).header("User-Agent")).isEqualTo("shop/2.1");
	}

	// The first answer is the test server's address; any later one is a private address
	// that is not listed, which a second lookup by the HTTP client would connect to.
	private InetAddress[] rebinding(String host) throws UnknownHostException {
		if (!host.equals("callback.test")) {
			throw new UnknownHostException(host);
		}
		String address = (this.lookups.getAndIncrement() == 0) ? "127.0.0.1" : "10.66.0.1";
		return new InetAddress[] { InetAddress.getByName(address) };
	}

}
