package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxStarter;
import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.agent.testing.LogCapture;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phase 8 runs once start-up is done (here at once: {@code limiter.jmx.delay=0}) and still does all it did when it
 * ran at the end of the parse: reloads are logged, the file is watched, the MBeans are registered.
 */
class AfterStartupTest {

    private static final Logger LOG = Logger.getLogger("dev.limiter.test.after");

    @TempDir
    Path dir;

    @Test
    void watchesLogsReloadsAndRegistersTheMBeansOnceStartupIsDone() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules(1));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String before = System.getProperty(JmxStarter.DELAY_PROPERTY);
        System.setProperty(JmxStarter.DELAY_PROPERTY, "0");
        try (RuleSetHolder holder = RuleSetHolder.open(file); LogCapture logged = LogCapture.on(LOG)) {
            Thread thread = new Thread(new AfterStartup(holder, null, new RedisLimiterFactory(LOG), null,
                    "dev.limiter.test.after", LOG, new ThrottledLog("dev.limiter.test.after", 10_000)));
            thread.start();
            thread.join(30_000);

            assertThat(thread.isAlive()).isFalse();
            assertThat(holder.watcher()).isNotNull();
            assertThat(server.getAttribute(new ObjectName("dev.limiter:type=Rule,name=after"), "Limit")).isEqualTo(1L);
            assertThat(server.isRegistered(new ObjectName("dev.limiter:type=Store"))).isTrue();

            Files.writeString(file, rules(2));
            holder.reload(); // or the watcher first: either logs it
            assertThat(logged.records).anyMatch(r -> r.getMessage().contains("reloaded rules"));
        } finally {
            if (before == null) {
                System.clearProperty(JmxStarter.DELAY_PROPERTY);
            } else {
                System.setProperty(JmxStarter.DELAY_PROPERTY, before);
            }
            for (ObjectName name : server.queryNames(new ObjectName("dev.limiter:*"), null)) {
                server.unregisterMBean(name);
            }
        }
    }

    private static String rules(int limit) {
        return "version: 1\nrules:\n  - id: after\n    match: { http: { path: /x } }\n    limit: " + limit
                + "\n    window: 1s\n";
    }
}
