package dev.limiter.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.rules.StoreSpec;
import java.lang.reflect.Method;
import java.util.List;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code dev.limiter:type=Store} as a console reads it, on a live {@code redis-server}: exact round trips, real
 * latencies and no errors while Redis answers; then Redis is killed and the MBean shows the fallback.
 *
 * <p>The MBean is registered on a private MBean server (not the platform one, which other tests' delayed
 * registrations may also use) through {@code StoreJmx.register}, package-private to the JMX package: reached by
 * reflection because this test belongs to the store package.
 */
class LiveStoreJmxTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final RedisLimiterFactory factory = new RedisLimiterFactory(Logger.getLogger("dev.limiter.test"));

    @AfterEach
    void close() {
        factory.closeAll();
    }

    private ObjectName register() throws Exception {
        Class<?> jmx = Class.forName("dev.limiter.agent.jmx.StoreJmx");
        Method register = jmx.getDeclaredMethod("register", MBeanServer.class, RedisLimiterFactory.class);
        register.setAccessible(true);
        return (ObjectName) register.invoke(null, server, factory);
    }

    private long number(ObjectName name, String attribute) throws Exception {
        return (Long) server.getAttribute(name, attribute);
    }

    @Test
    void countsExactlyWhileRedisAnswersAndShowsTheFallbackOnceItIsKilled() throws Exception {
        ObjectName name = register();
        TestRedis redis = TestRedis.start();
        try {
            StoreSpec spec = new StoreSpec("redis", List.of(redis.uri()), 500, "local", "jmx-test:");
            KeyedLimiter limiter = factory.create("live", spec, Strategies.byName("fixed-window"),
                    LimitConfig.of(10, 60_000), 100, OnFull.REJECT);
            factory.retain(List.of(spec));
            long[] out = Outcome.newArray();
            int admitted = 0;
            for (int i = 0; i < 25; i++) {
                admitted += limiter.tryAcquire("k", out) ? 1 : 0;
            }
            assertThat(admitted).isEqualTo(10);

            assertThat(server.getAttribute(name, "Type")).isEqualTo("redis");
            assertThat(server.getAttribute(name, "State")).isEqualTo("up");
            assertThat(server.getAttribute(name, "Uri")).isEqualTo(redis.uri());
            assertThat(number(name, "RoundTrips")).as("one per check, nothing else").isEqualTo(25);
            assertThat(number(name, "Errors")).isZero();
            assertThat(number(name, "Timeouts")).isZero();
            assertThat(number(name, "Fallbacks")).isZero();
            assertThat(number(name, "CircuitOpens")).isZero();
            long p50 = number(name, "LatencyP50Micros");
            long p99 = number(name, "LatencyP99Micros");
            long max = number(name, "LatencyMaxMicros");
            System.out.printf("live store over JMX: 25 round trips, p50 %d us, p99 %d us, max %d us%n", p50, p99, max);
            assertThat(p50).as("a real round trip takes time").isPositive();
            assertThat(p99).isGreaterThanOrEqualTo(p50);
            assertThat(number(name, "LatencyP999Micros")).isGreaterThanOrEqualTo(p99);
            assertThat(max).isGreaterThanOrEqualTo(p99);

            server.invoke(name, "resetLatencies", null, null);
            assertThat(number(name, "LatencyMaxMicros")).isZero();
            assertThat(number(name, "RoundTrips")).as("counters are not latencies").isEqualTo(25);

            redis.close(); // SIGKILL
            for (int i = 0; i < 10; i++) {
                limiter.tryAcquire("k2", out);
            }
            assertThat(server.getAttribute(name, "State")).isEqualTo("fallback");
            assertThat(number(name, "Errors")).as("the check that met the dead connection").isPositive();
            assertThat(number(name, "CircuitOpens")).isEqualTo(1);
            assertThat(number(name, "Fallbacks")).as("every check after the kill").isEqualTo(10);
            assertThat(number(name, "RoundTrips")).isEqualTo(25);
        } finally {
            redis.close();
        }
    }
}
