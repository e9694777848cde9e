package io.github.delayqueue.autoconfigure;

import java.util.Collection;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds the mapper that writes and reads stored payloads. Jobs outlive deployments, so
 * the stored format must not follow settings made for other purposes: the mapper has
 * Jackson's defaults, the modules on the class path and the application's
 * {@link JacksonModule} beans, and none of the {@code spring.jackson.*} properties.
 * Unknown properties are ignored on read, so that a field removed from a payload class
 * does not break the jobs still pending with it.
 *
 * @author delayqueue contributors
 */
final class DelayQueueJsonMapper {

	private DelayQueueJsonMapper() {
	}

	/**
	 * Create the mapper.
	 * @param modules the application's modules, added after those found on the class path
	 * @return the mapper
	 */
	static JsonMapper create(Collection<? extends JacksonModule> modules) {
		return JsonMapper.builder()
			.findAndAddModules(DelayQueueJsonMapper.class.getClassLoader())
			.addModules(modules)
			.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build();
	}

}
