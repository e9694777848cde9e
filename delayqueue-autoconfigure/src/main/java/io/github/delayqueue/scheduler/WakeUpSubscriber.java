package io.github.delayqueue.scheduler;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * Hears the wake channel: another instance published a topic whose earliest due time
 * moved earlier, so the scheduler sweeps it now. Every (re)subscription, after a
 * reconnect for instance, sweeps every topic, since messages published meanwhile were
 * lost.
 *
 * @author delayqueue contributors
 */
public class WakeUpSubscriber implements MessageListener, SubscriptionListener {

	private final DelayedJobScheduler scheduler;

	/**
	 * Create a subscriber for a scheduler.
	 * @param scheduler the scheduler to wake
	 */
	public WakeUpSubscriber(DelayedJobScheduler scheduler) {
		this.scheduler = scheduler;
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		this.scheduler.wakeUp(new String(message.getBody(), StandardCharsets.UTF_8));
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		this.scheduler.wakeUpAll();
	}

}
