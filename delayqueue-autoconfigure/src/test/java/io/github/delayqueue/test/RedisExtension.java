package io.github.delayqueue.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a real Redis server, shared by every test class of the JVM and
 * flushed before each class so that no state leaks between classes. Test methods and
 * constructors receive it as a {@link RedisTestServer} parameter.
 */
public final class RedisExtension implements BeforeAllCallback, ParameterResolver {

	private static RedisTestServer shared;

	/**
	 * Return the shared server, starting it on first use.
	 * @return the server
	 */
	public static synchronized RedisTestServer server() {
		if (shared == null) {
			RedisTestServer server = RedisTestServer.start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::close));
			shared = server;
		}
		return shared;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		server().flushAll();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == RedisTestServer.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return server();
	}

}
