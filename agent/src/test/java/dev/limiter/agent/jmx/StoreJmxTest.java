package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.rules.StoreSpec;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code dev.limiter:type=Store} as a console reads it: local first, then a Redis store that is unreachable. */
class StoreJmxTest {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final RedisLimiterFactory factory = new RedisLimiterFactory(Logger.getLogger("dev.limiter.test"));

    @AfterEach
    void close() {
        factory.closeAll();
    }

    private Object read(ObjectName name, String attribute) throws Exception {
        return server.getAttribute(name, attribute);
    }

    @Test
    void showsLocalThenTheActiveRedisStoreFallingBack() throws Exception {
        ObjectName name = StoreJmx.register(server, factory);
        assertThat(name.toString()).isEqualTo("dev.limiter:type=Store");
        assertThat(read(name, "Type")).isEqualTo("local");
        assertThat(read(name, "State")).isEqualTo("up");
        assertThat(read(name, "Uri")).isEqualTo("");

        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        StoreSpec spec = new StoreSpec("redis", List.of("redis://app:pw@127.0.0.1:" + port), 50, "allow",
                "limiter:");
        KeyedLimiter limiter = factory.create("r", spec, Strategies.byName("fixed-window"),
                LimitConfig.of(1, 60_000), 100, OnFull.REJECT);
        factory.retain(List.of(spec));
        long[] out = Outcome.newArray();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("k", out)).as("on-failure: allow").isTrue();
        }

        assertThat(read(name, "Type")).isEqualTo("redis");
        assertThat(read(name, "State")).isEqualTo("fallback");
        assertThat(read(name, "Uri")).isEqualTo("redis://app:***@127.0.0.1:" + port);
        assertThat(read(name, "OnFailure")).isEqualTo("allow");
        assertThat((Long) read(name, "Fallbacks")).isEqualTo(3L);
        assertThat((Long) read(name, "LatencyP99Micros")).isGreaterThanOrEqualTo(0L);
        server.invoke(name, "resetLatencies", null, null);

        factory.retain(List.of());
        assertThat(read(name, "Type")).isEqualTo("local");
    }

    @Test
    void byDefaultTheStoreMBeanWaitsForTheFirstRequest() throws Exception {
        MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(StoreJmx.NAME);
        String before = System.getProperty(JmxStarter.DELAY_PROPERTY);
        System.clearProperty(JmxStarter.DELAY_PROPERTY);
        CountDownLatch firstRequest = new CountDownLatch(1);
        try {
            Thread thread = StoreJmx.start(factory, Logger.getLogger("dev.limiter.test"), firstRequest);

            thread.join(700); // longer than the old fixed 500 ms delay
            assertThat(thread.isAlive()).isTrue();
            assertThat(platform.isRegistered(name)).isFalse();

            firstRequest.countDown();
            thread.join(30_000);
            assertThat(thread.isAlive()).isFalse();
            assertThat(platform.getAttribute(name, "Type")).isEqualTo("local");
        } finally {
            if (before != null) {
                System.setProperty(JmxStarter.DELAY_PROPERTY, before);
            }
            if (platform.isRegistered(name)) {
                platform.unregisterMBean(name);
            }
        }
    }
}
