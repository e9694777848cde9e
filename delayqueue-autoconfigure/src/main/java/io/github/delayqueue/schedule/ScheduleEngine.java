package io.github.delayqueue.schedule;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.core.DueTimeListener;
import io.github.delayqueue.store.DelayQueueKeys;
import io.github.delayqueue.store.JobRecordCodec;
import io.github.delayqueue.store.JobStore;
import io.github.delayqueue.store.ScriptRunner;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;

/**
 * Puts the parts of recurring schedules together: the {@link DelayQueueSchedules} an
 * application uses and the {@link ScheduleLoop} that declares this instance's schedules
 * and, where the scheduler runs, produces ticks. One per application.
 *
 * @author delayqueue contributors
 */
public final class ScheduleEngine {

	private final RedisClock clock = new RedisClock();

	private final ScheduleKeys keys;

	private final ScheduleLoop loop;

	private final DefaultDelayQueueSchedules schedules;

	private final ScheduleDeclarations declarations;

	/**
	 * Create the engine.
	 * @param scripts runs the scripts
	 * @param keyPrefix the prefix of every key
	 * @param jobStore registers the topics of schedules
	 * @param codec encodes the records of tick jobs
	 * @param jsonMapper reads and writes definitions
	 * @param dueTimes hears of tick jobs written ahead, to wake the local scheduler
	 * @param declared the schedules of this application's configuration
	 * @param produceTicks whether this instance decides ticks (its scheduler runs)
	 * @param listeners hear what became of the ticks this instance decided
	 */
	public ScheduleEngine(ScriptRunner scripts, String keyPrefix, JobStore jobStore, JobRecordCodec codec,
			JsonMapper jsonMapper, DueTimeListener dueTimes, Supplier<List<ScheduleDefinition>> declared,
			boolean produceTicks, List<ScheduleTickListener> listeners) {
		this.keys = new ScheduleKeys(keyPrefix);
		ScheduleStore store = new ScheduleStore(scripts, this.keys, codec, jsonMapper,
				new DelayQueueKeys(keyPrefix).wakeChannel());
		ScheduleCatalog catalog = produceTicks ? new ScheduleCatalog(store) : null;
		TickProducer producer = (catalog != null) ? new TickProducer(store, catalog, this.clock, dueTimes, listeners)
				: null;
		ScheduleActivator activator = new ScheduleActivator(store, jobStore, this.clock, dueTimes);
		this.declarations = new ScheduleDeclarations(store, activator, declared);
		this.loop = new ScheduleLoop(this.declarations, producer, catalog, this.clock);
		// A change made here reaches this instance's loop at once, whether or not it
		// hears the announcements of other instances.
		store.setLocalListener(this.loop::reload);
		this.schedules = new DefaultDelayQueueSchedules(store, activator, this.declarations);
	}

	/**
	 * Return the schedules' API.
	 * @return the schedules
	 */
	public DelayQueueSchedules schedules() {
		return this.schedules;
	}

	/**
	 * Return the loop that declares schedules and produces ticks.
	 * @return the loop
	 */
	public ScheduleLoop loop() {
		return this.loop;
	}

	/**
	 * Return the channel on which schedule changes are announced.
	 * @return the channel
	 */
	public ChannelTopic changeChannel() {
		return new ChannelTopic(this.keys.changeChannel());
	}

	/**
	 * Return the listener of change announcements: the loop reads every schedule again.
	 * @return the listener
	 */
	public MessageListener changeListener() {
		return (message, pattern) -> this.loop.reload();
	}

	/**
	 * Set this instance's wall clock, which is only compared with the Redis clock to know
	 * how long to sleep.
	 * @param clock the clock
	 */
	public void setClock(Clock clock) {
		this.clock.setClock(clock);
	}

	/**
	 * Set how long a schedule that no running instance declares any more is kept.
	 * @param grace the grace period
	 */
	public void setRemovalGrace(Duration grace) {
		this.declarations.setGrace(grace);
	}

}
