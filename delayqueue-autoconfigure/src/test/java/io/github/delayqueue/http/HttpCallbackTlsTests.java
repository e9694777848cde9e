package io.github.delayqueue.http;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

import io.github.delayqueue.test.HttpTestServer;
import io.github.delayqueue.test.TestCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How {@link HttpCallbackExecutor} calls an {@code https} URL at the address it was
 * given: the TLS handshake names the URL's host and the certificate is checked against
 * it, as if the name had been resolved to that address. Against a real HTTPS server with
 * a certificate made for the test.
 */
class HttpCallbackTlsTests {

	private static final String HOST = "callback.test";

	// Made once: keytool starts a JVM of its own.
	private static TestCertificate certificate;

	private HttpTestServer server;

	private List<InetAddress> loopback;

	@BeforeAll
	static void makeCertificate(@TempDir Path directory) {
		certificate = TestCertificate.forHost(directory, HOST);
	}

	@BeforeEach
	void startServer() throws Exception {
		this.server = HttpTestServer.startHttps(certificate.serverContext());
		this.loopback = List.of(InetAddress.getByName("127.0.0.1"));
	}

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void namesTheHostInTheHandshakeAndChecksTheCertificateAgainstIt() {
		HttpCallbackExecutor executor = new HttpCallbackExecutor(certificate.clientContext());

		executor.execute(HttpCallback.get(this.server.url(HOST, "/secure")).build(), this.loopback);

		assertThat(this.server.requests("/secure")).singleElement().satisfies((request) -> {
			assertThat(request.serverName()).isEqualTo(HOST);
			assertThat(request.header("Host")).isEqualTo(HOST + ":" + this.server.port());
		});
	}

	@Test
	void refusesACertificateMadeForAnotherHost() {
		HttpCallbackExecutor executor = new HttpCallbackExecutor(certificate.clientContext());
		String url = this.server.url("other.test", "/secure");

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> executor.execute(HttpCallback.get(url).build(), this.loopback))
			.withMessageStartingWith("GET " + url + " failed: SSLHandshakeException: ")
			.withMessageContaining("other.test");
		assertThat(this.server.requests("/secure")).isEmpty();
	}

	@Test
	void refusesACertificateTheJvmDoesNotTrustByDefault() {
		HttpCallbackExecutor executor = new HttpCallbackExecutor();
		String url = this.server.url(HOST, "/secure");

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> executor.execute(HttpCallback.get(url).build(), this.loopback))
			.withMessageStartingWith("GET " + url + " failed: SSLHandshakeException: ");
		assertThat(this.server.requests("/secure")).isEmpty();
	}

}
