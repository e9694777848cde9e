package io.github.delayqueue.internal.scheduler;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.github.delayqueue.internal.store.DelayQueueKeys;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;

/**
 * Hears the wake and claim channels for a scheduler. On the wake channel another instance
 * published a topic whose earliest due time moved earlier, so the scheduler sweeps it
 * now; on the claim channel a consumer announced claims of a topic, so the scheduler
 * looks for their deadlines within {@code max-sleep}. Once both channels are subscribed,
 * at start-up and again after every reconnect, the scheduler sweeps every topic, since
 * messages published meanwhile were lost, and may then sleep longer. Every message,
 * heartbeats (an empty body) included, tells the scheduler that messages arrive.
 *
 * @author delayqueue contributors
 */
public class WakeUpSubscriber implements MessageListener, SubscriptionListener {

	private final DelayedJobScheduler scheduler;

	private final byte[] wakeChannel;

	private final byte[] claimChannel;

	/**
	 * Create a subscriber for a scheduler.
	 * @param scheduler the scheduler to wake
	 * @param keys names the channels
	 */
	public WakeUpSubscriber(DelayedJobScheduler scheduler, DelayQueueKeys keys) {
		this.scheduler = scheduler;
		this.wakeChannel = keys.wakeChannel().getBytes(StandardCharsets.UTF_8);
		this.claimChannel = keys.claimChannel().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Return the channels to subscribe this listener to.
	 * @return the wake and claim channels
	 */
	public List<ChannelTopic> channels() {
		return List.of(new ChannelTopic(new String(this.wakeChannel, StandardCharsets.UTF_8)),
				new ChannelTopic(new String(this.claimChannel, StandardCharsets.UTF_8)));
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		this.scheduler.wakeUpsHeard();
		String topic = new String(message.getBody(), StandardCharsets.UTF_8);
		if (topic.isEmpty()) {
			return; // a heartbeat
		}
		if (Arrays.equals(message.getChannel(), this.claimChannel)) {
			this.scheduler.jobsClaimed(topic);
		}
		else {
			this.scheduler.wakeUp(topic);
		}
	}

	@Override
	public void onChannelSubscribed(byte[] channel, long count) {
		// One command subscribes both channels, at start-up and after every reconnect,
		// so the count reaches two once each time.
		if (count >= 2) {
			this.scheduler.wakeUpsSubscribed();
		}
	}

	@Override
	public void onChannelUnsubscribed(byte[] channel, long count) {
		this.scheduler.wakeUpsLost();
	}

	/**
	 * The container of this subscriber stopped: no message arrives any more, whether
	 * Redis confirmed the unsubscription or not.
	 */
	void subscriptionStopped() {
		this.scheduler.wakeUpsLost();
	}

}
