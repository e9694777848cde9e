package io.github.delayqueue.samples.ordertimeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the sample starts a Redis of its own, and when it leaves Redis to the application.
 */
class EmbeddedRedisInitializerTests {

	@Test
	void startsRedisOnAFreePortWhenNoneIsConfiguredAndStopsItWithTheContext() throws IOException {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			new EmbeddedRedisInitializer().initialize(context);
			int port = context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class);
			assertThat(context.getEnvironment().getProperty("spring.data.redis.host")).isEqualTo("127.0.0.1");
			assertThat(accepts(port)).isTrue();
			context.refresh();
			context.close();
			assertThat(accepts(port)).isFalse();
		}
	}

	@Test
	void leavesRedisAloneWhenTheApplicationNamesOne() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("user", Map.of("spring.data.redis.host", "redis.example")));
			new EmbeddedRedisInitializer().initialize(context);
			assertThat(context.getEnvironment().getProperty("spring.data.redis.port")).isNull();
			assertThat(context.getBeanFactory().containsSingleton("embeddedRedis")).isFalse();
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
