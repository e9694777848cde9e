package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Turns the host name of an HTTP callback into the addresses it stands for, just before
 * the call, so that {@link HttpCallbackValidator} can refuse names that lead to loopback,
 * link-local or private addresses. The addresses it returns, once checked, are the only
 * ones the call connects to. The default, {@link #SYSTEM}, asks the JVM.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
interface HostResolver {

	/**
	 * The JVM's own resolution ({@link InetAddress#getAllByName(String)}), cached as the
	 * {@code networkaddress.cache.ttl} security property says.
	 */
	HostResolver SYSTEM = InetAddress::getAllByName;

	/**
	 * Return every address of a host.
	 * @param host the host name
	 * @return its addresses, at least one
	 * @throws UnknownHostException if the name cannot be resolved
	 */
	InetAddress[] resolve(String host) throws UnknownHostException;

}
