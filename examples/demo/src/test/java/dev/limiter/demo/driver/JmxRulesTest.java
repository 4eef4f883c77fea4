package dev.limiter.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The driver's JMX path against MBeans with the agent's names and attribute names, registered in this JVM and
 * read back through the Attach API and the local connector exactly as the demo reads the service (the POM allows
 * attaching to itself for this test).
 */
class JmxRulesTest {

    /** The attributes the demo reads, as the agent's rule MXBean has them. */
    public interface FakeRuleMXBean {
        long getAllowed();

        long getRejected();

        long getWouldReject();

        int getActiveKeys();

        long getLimit();

        long getWindowMillis();

        long getCapacity();

        String getStrategy();

        String getMode();
    }

    /** The attributes the demo reads from the limiter MXBean. */
    public interface FakeLimiterMXBean {
        int getRuleCount();

        long getReloadCount();

        boolean isEnabled();
    }

    private static final class FakeRule implements FakeRuleMXBean {
        @Override
        public long getAllowed() {
            return 41;
        }

        @Override
        public long getRejected() {
            return 7;
        }

        @Override
        public long getWouldReject() {
            return 3;
        }

        @Override
        public int getActiveKeys() {
            return 2;
        }

        @Override
        public long getLimit() {
            return 30;
        }

        @Override
        public long getWindowMillis() {
            return 1000;
        }

        @Override
        public long getCapacity() {
            return 60;
        }

        @Override
        public String getStrategy() {
            return "token-bucket";
        }

        @Override
        public String getMode() {
            return "enforce";
        }
    }

    private static final class FakeLimiter implements FakeLimiterMXBean {
        @Override
        public int getRuleCount() {
            return 7;
        }

        @Override
        public long getReloadCount() {
            return 1;
        }

        @Override
        public boolean isEnabled() {
            return true;
        }
    }

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final ObjectName rule = name("dev.limiter:type=Rule,name=orders-per-client");
    private final ObjectName limiter = name(JmxRules.LIMITER);

    @AfterEach
    void unregister() throws Exception {
        for (ObjectName name : new ObjectName[] {rule, limiter}) {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        }
    }

    @Test
    void readsTheRuleAndLimiterMBeansOverTheAttachedLocalConnector() throws Exception {
        try (JmxRules jmx = JmxRules.attach(ProcessHandle.current().pid())) {
            assertThat(jmx.read()).as("no MBeans yet").isEmpty();
            server.registerMBean(new FakeRule(), rule);
            server.registerMBean(new FakeLimiter(), limiter);

            List<RuleRow> rows = jmx.read();

            assertThat(rows).containsExactly(new RuleRow("orders-per-client", "token-bucket", "enforce", 41, 7, 3, 2,
                    30, 1000, 60, null, List.of()));
            assertThat(jmx.limiterLine()).isEqualTo("RuleCount=7  ReloadCount=1  Enabled=true");
            assertThat(RuleTable.fromJmx(BundledRules.load(), rows).lines().get(2))
                    .startsWith("orders-per-client").contains("30/1s burst 60");
        }
    }

    private static ObjectName name(String text) {
        try {
            return new ObjectName(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
