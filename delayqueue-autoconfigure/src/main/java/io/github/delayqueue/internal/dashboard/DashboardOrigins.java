package io.github.delayqueue.internal.dashboard;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Origins as a browser writes them ({@code scheme://host[:port]}, the scheme's default
 * port left out), so that two spellings of one origin compare equal.
 *
 * @author delayqueue contributors
 */
public final class DashboardOrigins {

	private DashboardOrigins() {
	}

	/**
	 * Return an origin in the form a browser writes it, or {@code null} when the text is
	 * not an http or https origin (a path, query, fragment or user part makes it none).
	 * @param text the origin
	 * @return the origin, lower case and without the scheme's default port, or
	 * {@code null}
	 */
	public static @Nullable String normalize(String text) {
		try {
			URI uri = new URI(text.trim());
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawQuery() == null
					&& uri.getRawFragment() == null && uri.getRawUserInfo() == null;
			if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare) {
				return null;
			}
			return of(scheme, uri.getHost(), uri.getPort());
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	/**
	 * Return an origin in the form a browser writes it.
	 * @param scheme the scheme, lower case
	 * @param host the host name or address
	 * @param port the port, or -1 for the scheme's default
	 * @return the origin
	 */
	static String of(String scheme, String host, int port) {
		boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
				|| (scheme.equals("https") && port == 443);
		String name = host.toLowerCase(Locale.ROOT);
		if (name.contains(":") && !name.startsWith("[")) {
			name = "[" + name + "]";
		}
		return scheme + "://" + name + (defaultPort ? "" : ":" + port);
	}

}
