package io.github.delayqueue.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Prepares a Spring Boot test of an application that uses the delay queue: a real Redis
 * to run on, a key prefix of the test's own, and a {@link DelayQueueTester} bean.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureDelayQueue
 * class OrderTimeoutTests {
 *
 *     &#64;Autowired DelayQueueTester delayQueue;
 *     ...
 * }
 * </pre>
 *
 * <p>
 * <b>Redis.</b> By default ({@link Redis#AUTO}) a test runs on a Redis of its own, as
 * {@code @AutoConfigureTestDatabase} replaces the application's database: a Redis
 * container, wired by {@code @ServiceConnection}, where Docker runs, otherwise the Redis
 * server shipped in the embedded-redis jar (Redis 6.2), one per JVM, on a free port. The
 * {@code spring.data.redis.*} properties of the application's configuration files and of
 * the environment variables, which usually name a Redis shared by developers, are not
 * used. A Redis that the test itself names is used as it is: properties of the test
 * ({@code @SpringBootTest(properties = ...)}, {@code @TestPropertySource},
 * {@code @DynamicPropertySource}, system properties), a
 * {@code DataRedisConnectionDetails} bean such as a {@code @ServiceConnection}
 * container's, or a {@code RedisConnectionFactory} bean. {@link Redis#APPLICATION} uses
 * the application's own Redis. Each test context logs one line saying which Redis it
 * uses. {@code delayqueue-test.redis-server} (or the environment variable
 * {@code DELAYQUEUE_TEST_REDIS_SERVER}) names another {@code redis-server} binary for it,
 * and {@code delayqueue-test.redis-image} another container image
 * ({@code redis:7.2-alpine} unless set).
 * <p>
 * <b>Isolation.</b> Every application context gets a key prefix of its own
 * ({@code delayqueue.key-prefix} with a random suffix), so that contexts kept in Spring's
 * test context cache, tests run in parallel and other data on a shared Redis never meet;
 * the context's keys are deleted when it closes. Before each test method, the jobs of the
 * prefix are deleted and what the tester recorded is forgotten, unless
 * {@link #resetBeforeEachTest()} is {@code false}.
 *
 * @author delayqueue contributors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("delayqueue-test")
public @interface AutoConfigureDelayQueue {

	/**
	 * Where the test's Redis comes from.
	 * @return the source of Redis
	 */
	Redis redis() default Redis.AUTO;

	/**
	 * Whether the jobs of the test's key prefix are deleted, and the tester's records
	 * forgotten, before each test method. {@code false} for tests that rely on jobs of an
	 * earlier test or of the application's start-up.
	 * @return whether each test starts afresh
	 */
	boolean resetBeforeEachTest() default true;

	/**
	 * Where the Redis of a test comes from.
	 */
	enum Redis {

		/**
		 * The Redis the test itself names, else a container where Docker runs, else the
		 * embedded server; never the Redis of the application's configuration files.
		 */
		AUTO,

		/**
		 * A Redis container, wired by {@code @ServiceConnection}; Docker must run.
		 */
		CONTAINER,

		/**
		 * The {@code redis-server} binary of the embedded-redis jar, or the one that
		 * {@code delayqueue-test.redis-server} names, one per JVM.
		 */
		EMBEDDED,

		/**
		 * The Redis the application's own configuration names, its configuration files
		 * included; none is started.
		 */
		APPLICATION

	}

}
