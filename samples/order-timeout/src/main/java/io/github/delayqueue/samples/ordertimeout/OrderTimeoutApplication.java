package io.github.delayqueue.samples.ordertimeout;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The order-timeout sample application.
 *
 * @author delayqueue contributors
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class OrderTimeoutApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrderTimeoutApplication.class, args);
	}

}
