package dev.limiter.agent.jmx;

import dev.limiter.agent.store.RedisLimiterFactory;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
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
        if ("false".equalsIgnoreCase(System.getProperty(JmxStarter.ENABLED_PROPERTY, "").trim())) {
            return null;
        }
        return start(factory, log, JmxGate.FIRST_REQUEST);
    }

    /** {@link #start(RedisLimiterFactory, Logger)} with the gate the default registration waits for. */
    static Thread start(RedisLimiterFactory factory, Logger log, CountDownLatch gate) {
        long delay = JmxStarter.delayOrGate(System.getProperty(JmxStarter.DELAY_PROPERTY), log);
        Thread thread = new Thread(new Registration(factory, delay, gate, log), "limiter-jmx-store");
        thread.setDaemon(true);
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.start();
        return thread;
    }

    /**
     * The thread's work, started on the rules thread while the application starts (a class, not a lambda:
     * nothing to spin then).
     */
    private static final class Registration implements Runnable {

        private final RedisLimiterFactory factory;
        private final long delay;
        private final CountDownLatch gate;
        private final Logger log;

        Registration(RedisLimiterFactory factory, long delay, CountDownLatch gate, Logger log) {
            this.factory = factory;
            this.delay = delay;
            this.gate = gate;
            this.log = log;
        }

        @Override
        public void run() {
            try {
                JmxStarter.waitForTurn(delay, gate);
                register(ManagementFactory.getPlatformMBeanServer(), factory);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                log.log(Level.WARNING, "limiter: cannot register " + NAME + "; the store runs without it", t);
            }
        }
    }

    /** Registers the store MBean of {@code factory} on {@code server}. */
    static ObjectName register(MBeanServer server, RedisLimiterFactory factory) throws JMException {
        ObjectName name = new ObjectName(NAME);
        server.registerMBean(new StoreControl(factory), name);
        return name;
    }
}
