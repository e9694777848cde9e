package io.github.delayqueue.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.jspecify.annotations.Nullable;

/**
 * Opens the connection of a callback to one of the addresses its host was checked to
 * have, never to an address that a second lookup might return. Over {@code https} the TLS
 * handshake still names the URL's host (SNI) and the server's certificate is checked
 * against that name, as any HTTPS client does.
 *
 * @author delayqueue contributors
 */
final class PinnedConnector {

	private final @Nullable SSLContext sslContext;

	/**
	 * Create a connector.
	 * @param sslContext the TLS setup, or {@code null} for the JVM's default
	 */
	PinnedConnector(@Nullable SSLContext sslContext) {
		this.sslContext = sslContext;
	}

	/**
	 * Connect to the first of the addresses that answers, on the URL's port.
	 * @param uri the callback's URL
	 * @param addresses the checked addresses of its host, at least one
	 * @param deadline the time the call may take
	 * @return the connected socket, with TLS set up for {@code https}
	 * @throws IOException if no address could be connected to
	 */
	Socket connect(URI uri, List<InetAddress> addresses, CallDeadline deadline) throws IOException {
		boolean https = "https".equalsIgnoreCase(uri.getScheme());
		int port = (uri.getPort() != -1) ? uri.getPort() : (https ? 443 : 80);
		Socket socket = connectToAny(addresses, port, deadline);
		deadline.closeWhenPassed(socket);
		if (!https) {
			return socket;
		}
		try {
			return startTls(socket, HttpCallback.normalizeHost(uri.getHost()), port, deadline);
		}
		catch (IOException | RuntimeException ex) {
			CallDeadline.closeQuietly(socket);
			throw ex;
		}
	}

	private static Socket connectToAny(List<InetAddress> addresses, int port, CallDeadline deadline)
			throws IOException {
		IOException failure = null;
		for (InetAddress address : addresses) {
			Socket socket = new Socket();
			try {
				socket.connect(new InetSocketAddress(address, port), deadline.remainingMillis());
				return socket;
			}
			catch (IOException ex) {
				CallDeadline.closeQuietly(socket);
				if (ex instanceof SocketTimeoutException && deadline.hasPassed()) {
					throw ex;
				}
				failure = ex;
			}
		}
		if (failure == null) {
			throw new IllegalArgumentException("No address to connect to");
		}
		throw failure;
	}

	private Socket startTls(Socket socket, String host, int port, CallDeadline deadline) throws IOException {
		// Given the host name, JSSE names it in the handshake and checks the
		// certificate against it, whatever address the socket is connected to.
		SSLSocket tls = (SSLSocket) sslContext().getSocketFactory().createSocket(socket, host, port, true);
		SSLParameters parameters = tls.getSSLParameters();
		parameters.setEndpointIdentificationAlgorithm("HTTPS");
		if (IpAddressRange.parseLiteral(host) == null) {
			parameters.setServerNames(List.of(new SNIHostName(host)));
		}
		tls.setSSLParameters(parameters);
		tls.setSoTimeout(deadline.remainingMillis());
		tls.startHandshake();
		return tls;
	}

	private SSLContext sslContext() throws IOException {
		if (this.sslContext != null) {
			return this.sslContext;
		}
		try {
			return SSLContext.getDefault();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IOException("The JVM has no default TLS setup", ex);
		}
	}

}
