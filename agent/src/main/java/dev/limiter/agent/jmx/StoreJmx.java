package dev.limiter.agent.jmx;

import dev.limiter.agent.store.RedisLimiterFactory;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers {@code dev.limiter:type=Store} from its own delayed daemon thread, with the same delay and switch
 * as {@link JmxStarter} ({@value JmxStarter#DELAY_PROPERTY}, {@value JmxStarter#ENABLED_PROPERTY}) and for the
 * same reason: never touch JMX from premain.
 */
public final class StoreJmx {

    static final String NAME = ObjectNames.DOMAIN + ":type=Store";

    private StoreJmx() {
    }

    /** Starts the registering thread (or nothing when JMX is off); failures are logged, never thrown. */
    public static Thread start(RedisLimiterFactory factory, Logger log) {
        return DeferredRegistration.enabled() ? start(factory, log, JmxGate.FIRST_REQUEST) : null;
    }

    /** {@link #start(RedisLimiterFactory, Logger)} with the gate the default registration waits for. */
    static Thread start(RedisLimiterFactory factory, Logger log, CountDownLatch gate) {
        return new Registration(factory, gate, log).start("limiter-jmx-store");
    }

    /**
     * Registers on the calling thread, now (or nothing when JMX is off): for a caller that has waited for start-up
     * to be done ({@link JmxStarter#awaitStartupDone}); failures are logged, never thrown.
     */
    public static void registerNow(RedisLimiterFactory factory, Logger log) {
        if (DeferredRegistration.enabled()) {
            new Registration(factory, null, log).registerNow();
        }
    }

    /** Registers the store MBean of {@code factory} on {@code server}. */
    static ObjectName register(MBeanServer server, RedisLimiterFactory factory) throws JMException {
        ObjectName name = new ObjectName(NAME);
        server.registerMBean(new StoreControl(factory), name);
        return name;
    }

    /** Registers the store MBean (a class, not an anonymous one per call site: one shape for both ways in). */
    private static final class Registration extends DeferredRegistration {

        private final RedisLimiterFactory factory;

        Registration(RedisLimiterFactory factory, CountDownLatch gate, Logger log) {
            super(gate, log, NAME + "; the store runs without it");
            this.factory = factory;
        }

        @Override
        void register(MBeanServer server) throws JMException {
            StoreJmx.register(server, factory);
        }
    }
}
