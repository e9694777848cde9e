package io.github.delayqueue.samples.ordertimeout;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A partner webhook that fails the way real ones do: it refuses some orders until it is
 * fixed, and fails some first calls now and then.
 *
 * @author delayqueue contributors
 */
@RestController
@RequestMapping("/partner")
public class FlakyPartner {

	private final PartnerProperties properties;

	private final Set<Long> refused = ConcurrentHashMap.newKeySet();

	private final Map<Long, Integer> calls = new ConcurrentHashMap<>();

	private volatile boolean fixed;

	public FlakyPartner(PartnerProperties properties) {
		this.properties = properties;
	}

	@PostMapping("/order-closed")
	ResponseEntity<Void> orderClosed(@RequestBody OrderClosed event) {
		long id = event.orderId();
		int call = this.calls.merge(id, 1, Integer::sum);
		if (!this.fixed && isRefused(id)) {
			return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build();
		}
		boolean flaky = this.properties.flakyEvery() > 0 && id % this.properties.flakyEvery() == 0;
		if (flaky && call == 1) {
			return ResponseEntity.status(HttpStatus.BAD_GATEWAY).build();
		}
		return ResponseEntity.noContent().build();
	}

	// The first orders it hears about are the refused ones, so that their number is exact
	// whichever orders happen to be closed.
	private boolean isRefused(long id) {
		if (this.refused.contains(id)) {
			return true;
		}
		synchronized (this.refused) {
			if (this.calls.get(id) == 1 && this.refused.size() < this.properties.refusedOrders()) {
				this.refused.add(id);
				return true;
			}
		}
		return false;
	}

	/**
	 * Stop refusing orders, so that dead notifications succeed once requeued.
	 */
	public void fix() {
		this.fixed = true;
	}

}
