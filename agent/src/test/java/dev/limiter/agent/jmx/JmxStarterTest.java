package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmxStarterTest {

    private static final Logger LOG = Logger.getLogger("dev.limiter.test");

    @TempDir
    Path dir;

    @Test
    void theDelayIsMillisecondsWithADefaultForMissingOrNonsense() {
        assertThat(JmxStarter.delayMillis(null, LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis(" ", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis("0", LOG)).isZero();
        assertThat(JmxStarter.delayMillis(" 2500 ", LOG)).isEqualTo(2500);
        assertThat(JmxStarter.delayMillis("-1", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis("1s", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
    }

    @Test
    void registersFromADaemonThreadWhoseContextLoaderIsTheApplications() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, """
                version: 1
                rules:
                  - id: started
                    match: { http: { path: /x } }
                    limit: 1
                    window: 1s
                """);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String before = System.getProperty(JmxStarter.DELAY_PROPERTY);
        System.setProperty(JmxStarter.DELAY_PROPERTY, "0");
        try (RuleSetHolder holder = RuleSetHolder.open(file)) {
            Thread thread = JmxStarter.start(holder, LOG);

            assertThat(thread.isDaemon()).isTrue();
            assertThat(thread.getContextClassLoader()).isSameAs(ClassLoader.getSystemClassLoader());
            thread.join(30_000);
            assertThat(thread.isAlive()).isFalse();
            assertThat(server.isRegistered(ObjectNames.limiter())).isTrue();
            assertThat(server.getAttribute(ObjectNames.rule("started"), "Limit")).isEqualTo(1L);
        } finally {
            restore(before);
            for (ObjectName name : server.queryNames(new ObjectName(ObjectNames.DOMAIN + ":*"), null)) {
                server.unregisterMBean(name);
            }
        }
    }

    @Test
    void byDefaultRegistersOnlyOnceTheFirstRequestHasBeenServed() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, """
                version: 1
                rules:
                  - id: deferred
                    match: { http: { path: /x } }
                    limit: 2
                    window: 1s
                """);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String before = System.getProperty(JmxStarter.DELAY_PROPERTY);
        System.clearProperty(JmxStarter.DELAY_PROPERTY);
        CountDownLatch firstRequest = new CountDownLatch(1);
        try (RuleSetHolder holder = RuleSetHolder.open(file)) {
            Thread thread = JmxStarter.start(holder, LOG, firstRequest);

            thread.join(700); // longer than the old fixed 500 ms delay
            assertThat(thread.isAlive()).isTrue();
            assertThat(server.isRegistered(ObjectNames.rule("deferred"))).isFalse();

            firstRequest.countDown();
            thread.join(30_000);
            assertThat(thread.isAlive()).isFalse();
            assertThat(server.getAttribute(ObjectNames.rule("deferred"), "Limit")).isEqualTo(2L);
        } finally {
            restore(before);
            for (ObjectName name : server.queryNames(new ObjectName(ObjectNames.DOMAIN + ":*"), null)) {
                server.unregisterMBean(name);
            }
        }
    }

    @Test
    void anExplicitDelayDoesNotWaitForARequest() {
        assertThat(JmxStarter.delayOrGate(null, LOG)).isEqualTo(JmxStarter.AFTER_FIRST_REQUEST);
        assertThat(JmxStarter.delayOrGate("  ", LOG)).isEqualTo(JmxStarter.AFTER_FIRST_REQUEST);
        assertThat(JmxStarter.delayOrGate("0", LOG)).isZero();
        assertThat(JmxStarter.delayOrGate("250", LOG)).isEqualTo(250);
    }

    @Test
    void turnedOffItStartsNothing() {
        String before = System.getProperty(JmxStarter.ENABLED_PROPERTY);
        System.setProperty(JmxStarter.ENABLED_PROPERTY, "false");
        try {
            assertThat(JmxStarter.start(null, LOG)).isNull();
        } finally {
            if (before == null) {
                System.clearProperty(JmxStarter.ENABLED_PROPERTY);
            } else {
                System.setProperty(JmxStarter.ENABLED_PROPERTY, before);
            }
        }
    }

    private static void restore(String delay) {
        if (delay == null) {
            System.clearProperty(JmxStarter.DELAY_PROPERTY);
        } else {
            System.setProperty(JmxStarter.DELAY_PROPERTY, delay);
        }
    }
}
