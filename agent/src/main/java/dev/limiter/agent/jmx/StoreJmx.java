package dev.limiter.agent.jmx;

import dev.limiter.agent.store.RedisLimiterFactory;
import java.lang.management.ManagementFactory;
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
        long delay = JmxStarter.delayMillis(System.getProperty(JmxStarter.DELAY_PROPERTY), log);
        Thread thread = new Thread(() -> {
            try {
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                register(ManagementFactory.getPlatformMBeanServer(), factory);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                log.log(Level.WARNING, "limiter: cannot register " + NAME + "; the store runs without it", t);
            }
        }, "limiter-jmx-store");
        thread.setDaemon(true);
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.start();
        return thread;
    }

    /** Registers the store MBean of {@code factory} on {@code server}. */
    static ObjectName register(MBeanServer server, RedisLimiterFactory factory) throws JMException {
        ObjectName name = new ObjectName(NAME);
        server.registerMBean(new StoreControl(factory), name);
        return name;
    }
}
