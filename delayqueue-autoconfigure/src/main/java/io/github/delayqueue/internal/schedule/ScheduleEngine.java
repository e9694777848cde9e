package io.github.delayqueue.internal.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import io.github.delayqueue.core.DelayQueueSchedules;
import io.github.delayqueue.internal.store.JobHistory;
import io.github.delayqueue.internal.store.JobRecordCodec;
import io.github.delayqueue.internal.store.JobStore;
import io.github.delayqueue.internal.store.ScriptRunner;
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

	private final ScheduleStore store;

	private final ScheduleFastForward fastForward;

	/**
	 * Create the engine.
	 * @param scripts runs the scripts
	 * @param keyPrefix the prefix of every key
	 * @param jobStore registers the topics of schedules
	 * @param codec encodes the records of tick jobs
	 * @param jsonMapper reads and writes definitions
	 * @param declared the schedules of this application's configuration
	 * @param produceTicks whether this instance decides ticks (its scheduler runs)
	 * @param listeners hear what became of the ticks this instance decided
	 */
	public ScheduleEngine(ScriptRunner scripts, String keyPrefix, JobStore jobStore, JobRecordCodec codec,
			JsonMapper jsonMapper, Supplier<List<ScheduleDefinition>> declared, boolean produceTicks,
			List<ScheduleTickListener> listeners) {
		this.keys = new ScheduleKeys(keyPrefix);
		ScheduleStore store = new ScheduleStore(scripts, this.keys, codec, jsonMapper, this.clock);
		this.store = store;
		this.fastForward = new ScheduleFastForward(store, this.clock);
		ScheduleCatalog catalog = produceTicks ? new ScheduleCatalog(store) : null;
		TickProducer producer = (catalog != null) ? new TickProducer(store, catalog, this.clock, listeners) : null;
		ScheduleActivator activator = new ScheduleActivator(store, jobStore, this.clock);
		this.declarations = new ScheduleDeclarations(store, activator,
				new DeclarationRenewals(scripts, this.keys, this.clock, jsonMapper), declared);
		this.loop = new ScheduleLoop(this.declarations, producer, catalog, this.clock, scripts::serverTimeMicros);
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
	 * Set what the topics record of the jobs that ticks write: with a topic's timeline
	 * on, such a job starts its timeline with {@code SENT}, by this instance.
	 * @param history the topics' history settings
	 */
	public void setJobHistory(JobHistory history) {
		this.store.setJobHistory(history);
	}

	/**
	 * Move time forward for a topic's schedules, for tests that cannot wait for their
	 * ticks: the ticks that fall due within {@code by} from now are decided as if the
	 * Redis clock were that far ahead, by each schedule's misfire and overlap policies,
	 * and each schedule goes on from its first tick after that time.
	 * @param topic the topic
	 * @param by how far
	 * @return how many jobs the ticks wrote into the topic
	 */
	public long advance(String topic, Duration by) {
		return this.fastForward.advance(topic, by, null);
	}

	/**
	 * Move time forward for one schedule to its next tick, for tests that cannot wait for
	 * it: the tick is decided now as if its time had come, and the schedule goes on from
	 * the tick after it.
	 * @param scheduleId the schedule's id
	 * @return the tick decided
	 * @throws io.github.delayqueue.core.UnknownScheduleException if there is no such
	 * schedule
	 * @throws IllegalStateException if the schedule has no next tick (paused or disabled)
	 */
	public Instant runNextTick(String scheduleId) {
		return this.fastForward.runNextTick(scheduleId);
	}

	/**
	 * Declare this instance's schedules again and let them take effect in their topics as
	 * at start-up, from their first tick after now, for tests that delete every key
	 * between two tests.
	 */
	public void redeclare() {
		this.declarations.redeclare();
		this.loop.reload();
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
	 * Set how often the configuration's schedules are declared again, how long a
	 * declaration counts as current, how long a schedule no running instance declares is
	 * kept, and how often such schedules are looked for; for tests, which cannot wait for
	 * the defaults.
	 * @param heartbeat the interval between two declarations
	 * @param live how long a declaration counts as current
	 * @param grace how long a schedule no running instance declares is kept
	 * @param expiryInterval the interval between two looks for such schedules
	 */
	void setTimings(Duration heartbeat, Duration live, Duration grace, Duration expiryInterval) {
		this.loop.setHeartbeat(heartbeat);
		this.loop.setExpiryInterval(expiryInterval);
		this.declarations.setLive(live);
		this.declarations.setGrace(grace);
	}

}
