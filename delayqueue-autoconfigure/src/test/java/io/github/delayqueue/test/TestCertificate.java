package io.github.delayqueue.test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for one host name, made with the JDK's {@code keytool} when a
 * test asks for it (nothing is kept in the repository): TLS setups for a test server that
 * presents it and for a client that trusts it.
 */
public final class TestCertificate {

	private static final char[] PASSWORD = "changeit".toCharArray();

	private final KeyStore keyStore;

	private TestCertificate(KeyStore keyStore) {
		this.keyStore = keyStore;
	}

	/**
	 * Make a certificate whose subject alternative name is a host name.
	 * @param directory where the key store is written
	 * @param host the host name
	 * @return the certificate
	 */
	public static TestCertificate forHost(Path directory, String host) {
		Path file = directory.resolve(host + ".p12");
		String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
		List<String> command = List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname",
				"secp256r1", "-dname", "CN=" + host, "-ext", "SAN=dns:" + host, "-validity", "2", "-storetype",
				"PKCS12", "-keystore", file.toString(), "-storepass", new String(PASSWORD), "-keypass",
				new String(PASSWORD));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes());
			if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
				throw new IllegalStateException("keytool failed: " + output);
			}
			KeyStore keyStore = KeyStore.getInstance("PKCS12");
			try (InputStream in = Files.newInputStream(file)) {
				keyStore.load(in, PASSWORD);
			}
			return new TestCertificate(keyStore);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot make a certificate for " + host, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return a TLS setup that presents this certificate.
	 * @return the server's TLS setup
	 */
	public SSLContext serverContext() {
		try {
			KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(this.keyStore, PASSWORD);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keys.getKeyManagers(), null, null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Return a TLS setup that trusts this certificate and no other.
	 * @return the client's TLS setup
	 */
	public SSLContext clientContext() {
		try {
			KeyStore trusted = KeyStore.getInstance("PKCS12");
			trusted.load(null, null);
			trusted.setCertificateEntry("server", this.keyStore.getCertificate("server"));
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(trusted);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
