package io.github.delayqueue.internal.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real HTTP calls to a running application's Actuator, with the JDK client.
 */
final class ActuatorHttp {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper jsonMapper = JsonMapper.builder().build();

	private final String base;

	// Writes carry the Origin a browser on this origin sends: without it (or a login),
	// the endpoint refuses them.
	private final String origin;

	ActuatorHttp(int port) {
		this.base = "http://localhost:" + port + "/actuator";
		this.origin = "http://localhost:" + port;
	}

	Response get(String path) {
		return send(request(path).GET());
	}

	Response delete(String path) {
		return send(request(path).header("Origin", this.origin).DELETE());
	}

	Response post(String path, String json) {
		return send(request(path).header("Content-Type", "application/json")
			.header("Origin", this.origin)
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(30));
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			String body = response.body();
			JsonNode json = body.isEmpty() ? this.jsonMapper.missingNode() : this.jsonMapper.readTree(body);
			return new Response(response.statusCode(), body, json);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An HTTP response.
	 *
	 * @param status the status code
	 * @param body the body as text
	 * @param json the body as JSON, missing when empty
	 */
	record Response(int status, String body, JsonNode json) {

		/**
		 * Return a measurement of a {@code /actuator/metrics/...} response.
		 * @param statistic such as {@code COUNT} or {@code VALUE}
		 * @return its value
		 */
		double measurement(String statistic) {
			for (JsonNode measurement : this.json.path("measurements")) {
				if (statistic.equals(measurement.path("statistic").asString())) {
					JsonNode value = measurement.path("value");
					// A gauge with nothing to show answers NaN, which JSON writes as
					// text.
					return value.isNumber() ? value.asDouble() : Double.parseDouble(value.asString());
				}
			}
			throw new AssertionError("No " + statistic + " in " + this.body);
		}

	}

}
