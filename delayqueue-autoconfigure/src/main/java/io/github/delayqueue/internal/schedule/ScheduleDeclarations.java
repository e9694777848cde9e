package io.github.delayqueue.internal.schedule;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The schedules this instance's configuration declares (YAML and {@code @Recurring}),
 * declared to Redis at start-up, renewed every heartbeat, and made to take effect in
 * their topics whenever the definition that holds changes. A renewal costs Redis the same
 * whatever the number of schedules ({@link DeclarationRenewals}); they are declared one
 * by one again only when which definition holds may have changed. Which definition holds
 * is decided in Redis ({@code declare-schedules.lua}): the newest declared by a running
 * instance. Also forgets, after a grace period, the schedules no running instance
 * declares any more.
 *
 * @author delayqueue contributors
 */
final class ScheduleDeclarations {

	/**
	 * How often a running instance declares its schedules again.
	 */
	static final Duration HEARTBEAT = Duration.ofSeconds(30);

	/**
	 * How long after the last time an instance declared a definition it still counts as
	 * declared by a running instance: three heartbeats.
	 */
	static final Duration LIVE = HEARTBEAT.multipliedBy(3);

	/**
	 * How long a schedule no running instance declares any more is kept by default.
	 */
	static final Duration DEFAULT_GRACE = Duration.ofHours(1);

	private final ScheduleStore store;

	private final ScheduleActivator activator;

	private final DeclarationRenewals renewals;

	private final Supplier<List<ScheduleDefinition>> declared;

	// The hash of the definition last made to take effect from here, by id.
	private final Map<String, String> activated = new HashMap<>();

	// The set this instance renews, once declared in full, and the sets running
	// instances renewed then: while both stay the same, the same definitions hold.
	private DeclarationRenewals.@Nullable DeclaredSet adopted;

	private @Nullable String liveSets;

	private Duration live = LIVE;

	private Duration grace = DEFAULT_GRACE;

	ScheduleDeclarations(ScheduleStore store, ScheduleActivator activator, DeclarationRenewals renewals,
			Supplier<List<ScheduleDefinition>> declared) {
		this.store = store;
		this.activator = activator;
		this.renewals = renewals;
		this.declared = declared;
	}

	void setLive(Duration live) {
		this.live = live;
	}

	void setGrace(Duration grace) {
		this.grace = grace;
	}

	Duration live() {
		return this.live;
	}

	Duration grace() {
		return this.grace;
	}

	/**
	 * Renew this instance's declarations; when they are new to Redis, or the sets of
	 * definitions running instances renew changed, declare each schedule and make each
	 * definition that holds take effect where it did not yet from here.
	 * @return whether any schedule changed
	 */
	synchronized boolean declare() {
		List<ScheduleDefinition> definitions = this.declared.get();
		if (definitions.isEmpty()) {
			return false;
		}
		DeclarationRenewals.DeclaredSet set = this.renewals.setOf(definitions);
		if (set.equals(this.adopted)) {
			String live = this.renewals.renew(set, this.live, this.grace);
			if (live != null && live.equals(this.liveSets)) {
				return false;
			}
		}
		// Adopted before the declarations are read, so that a set that stops or starts
		// being renewed between the two calls is seen at the next renewal.
		this.adopted = null;
		String live = this.renewals.adopt(set, this.live, this.grace);
		boolean changed = declareEach(definitions);
		this.adopted = set;
		this.liveSets = live;
		return changed;
	}

	private boolean declareEach(List<ScheduleDefinition> definitions) {
		boolean changed = false;
		for (ScheduleStore.Holding holding : this.store.declare(definitions, this.live, this.grace)) {
			if (!holding.previousTopic().isEmpty()) {
				this.activator.remove(holding.previousTopic(), holding.id());
				changed = true;
			}
			if (!holding.hash().equals(this.activated.get(holding.id()))) {
				changed |= this.activator.activate(holding.definition());
				this.activated.put(holding.id(), holding.hash());
			}
		}
		return changed;
	}

	/**
	 * Declare this instance's schedules again and make each definition that holds take
	 * effect, as at start-up, for tests that deleted every key between two tests.
	 * @return whether any schedule changed
	 */
	synchronized boolean redeclare() {
		this.activated.clear();
		this.adopted = null;
		this.liveSets = null;
		return declare();
	}

	/**
	 * Remove the schedules that no running instance declared within the grace period.
	 * @return whether any was removed
	 */
	synchronized boolean expire() {
		Map<String, String> removed = this.store.expire(this.live, this.grace);
		removed.forEach((id, topic) -> {
			if (!topic.isEmpty()) {
				this.activator.remove(topic, id);
			}
			this.activated.remove(id);
		});
		return !removed.isEmpty();
	}

}
