package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.github.delayqueue.core.DelayQueueAdmin;
import io.github.delayqueue.core.TopicStats;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Runs the start-up demo: places orders, pays some of them, logs progress while the
 * timeouts fall due and the partner is notified, and ends with a summary. The application
 * keeps serving Actuator afterwards.
 *
 * @author delayqueue contributors
 */
@Component
public class DemoRunner implements DisposableBean {

	private static final Log logger = LogFactory.getLog(DemoRunner.class);

	private final DemoProperties properties;

	private final OrderService orders;

	private final DelayQueueAdmin admin;

	private final PartnerNotifier notifier;

	private final FlakyPartner partner;

	private final Lateness lateness;

	private final Environment environment;

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "demo");
		thread.setDaemon(true);
		return thread;
	});

	private final List<Long> orderIds = new ArrayList<>();

	private volatile @Nullable DemoSummary summary;

	private @Nullable ScheduledFuture<?> progress;

	private long startedAt;

	public DemoRunner(DemoProperties properties, OrderService orders, DelayQueueAdmin admin, PartnerNotifier notifier,
			FlakyPartner partner, Lateness lateness, Environment environment) {
		this.properties = properties;
		this.orders = orders;
		this.admin = admin;
		this.notifier = notifier;
		this.partner = partner;
		this.lateness = lateness;
		this.environment = environment;
	}

	@EventListener(ApplicationReadyEvent.class)
	void start() {
		if (this.properties.enabled()) {
			this.executor.execute(this::placeOrders);
		}
	}

	/**
	 * Return the summary once the demo has ended.
	 * @return the summary, empty while the demo runs or when it is disabled
	 */
	public Optional<DemoSummary> summary() {
		return Optional.ofNullable(this.summary);
	}

	private void placeOrders() {
		DemoProperties demo = this.properties;
		logger.info(String.format(Locale.ROOT,
				"Demo: placing %d orders that close when unpaid after %s to %s; %d of them will be paid", demo.orders(),
				seconds(demo.closeAfter()), seconds(demo.closeAfter().plus(demo.spread())), demo.paidOrders()));
		this.startedAt = System.nanoTime();
		long spreadNanos = demo.spread().toNanos();
		for (int n = 1; n <= demo.orders(); n++) {
			long offset = (demo.orders() > 1) ? spreadNanos * (n - 1) / (demo.orders() - 1) : 0;
			Order order = this.orders.place("demo item " + n, demo.closeAfter().plusNanos(offset));
			this.orderIds.add(order.id());
			if (demo.isPaid(n)) {
				// The customer pays at once; the payment cancels the order's timeout job.
				this.orders.pay(order.id());
			}
		}
		logger.info(String.format(Locale.ROOT, "Demo: %d orders placed and %d paid in %d ms; waiting for timeouts",
				demo.orders(), demo.paidOrders(), elapsed().toMillis()));
		long interval = demo.progressInterval().toMillis();
		this.progress = this.executor.scheduleAtFixedRate(this::reportProgress, interval, interval,
				TimeUnit.MILLISECONDS);
	}

	private void reportProgress() {
		try {
			DemoSummary current = snapshot();
			TopicStats timeouts = this.admin.stats(OrderTimeout.TOPIC);
			TopicStats notifications = this.admin.stats(OrderClosed.TOPIC);
			boolean settled = current.pending() == 0 && inFlight(timeouts) == 0 && inFlight(notifications) == 0
					&& current.delivered() + current.dead() >= current.closed();
			if (settled || elapsed().compareTo(this.properties.giveUpAfter()) > 0) {
				finish(current, settled);
				return;
			}
			logger.info(String.format(Locale.ROOT,
					"Demo %5.1fs: closed %d, paid %d, pending %d | partner: delivered %d, retried %d, dead %d"
							+ " | %s waiting %d, %s waiting %d",
					elapsed().toMillis() / 1000.0, current.closed(), current.paid(), current.pending(),
					current.delivered(), current.retried(), current.dead(), OrderTimeout.TOPIC, inFlight(timeouts),
					OrderClosed.TOPIC, inFlight(notifications)));
		}
		catch (RuntimeException ex) {
			// Keep reporting: one failed look at Redis must not end the demo.
			logger.warn("Demo: cannot report progress: " + ex.getMessage());
		}
	}

	private DemoSummary snapshot() {
		int paid = 0;
		int closed = 0;
		int pending = 0;
		for (Long id : this.orderIds) {
			Order.Status status = this.orders.find(id).map(Order::status).orElse(Order.Status.PENDING);
			switch (status) {
				case PAID -> paid++;
				case CLOSED -> closed++;
				default -> pending++;
			}
		}
		long dead = this.admin.stats(OrderClosed.TOPIC).dead();
		return new DemoSummary(this.orderIds.size(), paid, closed, pending, this.notifier.delivered(),
				this.notifier.retried(), dead, this.lateness.percentile(50), this.lateness.percentile(99), elapsed(),
				false);
	}

	private void finish(DemoSummary current, boolean complete) {
		if (this.progress != null) {
			this.progress.cancel(false);
		}
		DemoSummary result = new DemoSummary(current.orders(), current.paid(), current.closed(), current.pending(),
				current.delivered(), current.retried(), current.dead(), current.latenessP50(), current.latenessP99(),
				current.took(), complete);
		this.partner.fix();
		String port = this.environment.getProperty("local.server.port", "8080");
		String maxAttempts = this.environment.getProperty("delayqueue.topics.partner.notify.retry.max-attempts", "5");
		StringBuilder text = new StringBuilder();
		text.append(String.format(Locale.ROOT, "%n======== delayqueue demo summary (%s, %.1f s) ========%n",
				complete ? "complete" : "gave up waiting", result.took().toMillis() / 1000.0));
		text.append(String.format(Locale.ROOT, "  orders placed     %5d%n", result.orders()));
		text.append(String.format(Locale.ROOT, "  paid in time      %5d   (timeout job cancelled)%n", result.paid()));
		text.append(String.format(Locale.ROOT, "  closed unpaid     %5d   (by %s jobs)%n", result.closed(),
				OrderTimeout.TOPIC));
		if (result.pending() > 0) {
			text.append(String.format(Locale.ROOT, "  still pending     %5d%n", result.pending()));
		}
		text.append(String.format(Locale.ROOT, "  partner notified  %5d%n", result.delivered()));
		text.append(String.format(Locale.ROOT, "  retried           %5d   (notifications that needed a retry)%n",
				result.retried()));
		text.append(String.format(Locale.ROOT, "  dead              %5d   (after %s attempts, kept for a person)%n",
				result.dead(), maxAttempts));
		text.append(String.format(Locale.ROOT, "  lateness          p50 %.1f ms, p99 %.1f ms over %d timeouts%n",
				millis(result.latenessP50()), millis(result.latenessP99()), this.lateness.count()));
		text.append(String.format(Locale.ROOT, "The partner is fixed now. Still serving on port %s:%n", port));
		text.append(String.format(Locale.ROOT, "  curl localhost:%s/actuator/delayqueue%n", port));
		text.append(String.format(Locale.ROOT,
				"  curl -X POST localhost:%s/actuator/delayqueue/%s"
						+ " -H 'Content-Type: application/json' -d '{\"action\":\"requeue-dead\"}'%n",
				port, OrderClosed.TOPIC));
		text.append(String.format(Locale.ROOT,
				"  curl -X POST localhost:%s/orders    then    curl -X POST localhost:%s" + "/orders/<id>/pay", port,
				port));
		logger.info(text);
		this.summary = result;
	}

	private static long inFlight(TopicStats stats) {
		return stats.delayed() + stats.ready() + stats.running();
	}

	private Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.startedAt);
	}

	private static String seconds(Duration duration) {
		return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1_000_000.0;
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
