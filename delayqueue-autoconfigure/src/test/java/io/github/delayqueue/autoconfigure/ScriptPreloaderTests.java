package io.github.delayqueue.autoconfigure;

import io.github.delayqueue.internal.store.DelayQueueScript;
import io.github.delayqueue.test.DelayQueueContextRunner;
import io.github.delayqueue.test.RedisExtension;
import io.github.delayqueue.test.RedisTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every script is in Redis once the application has started, before any call: the first
 * cancel, find or claim of a fresh instance does not fail with {@code NOSCRIPT} and send
 * its script again.
 */
@ExtendWith(RedisExtension.class)
class ScriptPreloaderTests {

	@Test
	void loadsEveryScriptBeforeTheApplicationHasStarted(RedisTestServer server) {
		server.command("SCRIPT", "FLUSH");
		// No scheduler and no listener: an instance that only sends and cancels.
		DelayQueueContextRunner.create(server)
			.withPropertyValues("delayqueue.scheduler.enabled=false", "delayqueue.listener.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				for (DelayQueueScript script : DelayQueueScript.values()) {
					assertThat(server.command("SCRIPT", "EXISTS", script.script().getSha1())).as(script.name())
						.contains(":1");
				}
			});
	}

}
