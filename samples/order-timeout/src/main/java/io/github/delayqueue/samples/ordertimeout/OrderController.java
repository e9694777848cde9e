package io.github.delayqueue.samples.ordertimeout;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Places and pays orders over HTTP.
 *
 * @author delayqueue contributors
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

	private final OrderService orders;

	private final Duration closeAfter;

	public OrderController(OrderService orders, @Value("${orders.close-after:30s}") Duration closeAfter) {
		this.orders = orders;
		this.closeAfter = closeAfter;
	}

	@PostMapping
	ResponseEntity<Order> place(@RequestBody(required = false) @Nullable NewOrder request) {
		String item = (request != null && request.item() != null) ? request.item() : "book";
		return ResponseEntity.status(HttpStatus.CREATED).body(this.orders.place(item, this.closeAfter));
	}

	@PostMapping("/{id}/pay")
	ResponseEntity<Order> pay(@PathVariable long id) {
		return this.orders.pay(id)
			.map((order) -> (order.status() == Order.Status.PAID) ? ResponseEntity.ok(order)
					: ResponseEntity.status(HttpStatus.CONFLICT).body(order))
			.orElseGet(() -> ResponseEntity.notFound().build());
	}

	@GetMapping("/{id}")
	ResponseEntity<Order> find(@PathVariable long id) {
		return ResponseEntity.of(this.orders.find(id));
	}

	/**
	 * What a client sends to place an order.
	 *
	 * @param item what is ordered
	 */
	record NewOrder(@Nullable String item) {

	}

}
