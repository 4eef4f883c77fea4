package dev.limiter.agent.jmx;

import dev.limiter.rules.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers the MBeans on the platform MBean server from a daemon thread, a little after start-up.
 *
 * <p>Never from premain: the first {@code ManagementFactory.getPlatformMBeanServer()} fixes the MBean server
 * builder and initialises {@code java.util.logging}, which stops servers that install their own (WildFly would
 * not start; OpenTelemetry's agent added a delay for the same reason, PR #11151). The delay is
 * {@value #DELAY_PROPERTY} milliseconds ({@value #DEFAULT_DELAY_MILLIS} by default; tests use 0 to be
 * deterministic); {@code -D}{@value #ENABLED_PROPERTY}{@code =false} turns JMX off. The agent opens no connector:
 * remote access, if wanted, is the JDK's own {@code com.sun.management.jmxremote.*}.
 */
public final class JmxStarter {

    /** Milliseconds to wait after start-up before touching JMX. */
    public static final String DELAY_PROPERTY = "limiter.jmx.delay";
    /** {@code false} registers no MBeans at all. */
    public static final String ENABLED_PROPERTY = "limiter.jmx";
    static final long DEFAULT_DELAY_MILLIS = 500;

    private JmxStarter() {
    }

    /**
     * Starts the registering thread and returns at once; failures are logged, never thrown.
     *
     * @return the thread, or null when JMX is turned off
     */
    public static Thread start(RuleSetHolder holder, Logger log) {
        if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "").trim())) {
            return null;
        }
        long delay = delayMillis(System.getProperty(DELAY_PROPERTY), log);
        Thread thread = new Thread(() -> register(holder, delay, log), "limiter-jmx-start");
        thread.setDaemon(true);
        // If this thread creates the platform MBean server, a javax.management.builder.initial class is loaded
        // through the context loader: make it the application's, not the isolated agent loader (which sees
        // only the JDK).
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.start();
        return thread;
    }

    static long delayMillis(String text, Logger log) {
        if (text == null || text.isBlank()) {
            return DEFAULT_DELAY_MILLIS;
        }
        try {
            long delay = Long.parseLong(text.trim());
            if (delay >= 0) {
                return delay;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        log.warning("limiter: " + DELAY_PROPERTY + "=" + text + " is not a number of milliseconds; using "
                + DEFAULT_DELAY_MILLIS);
        return DEFAULT_DELAY_MILLIS;
    }

    private static void register(RuleSetHolder holder, long delay, Logger log) {
        try {
            if (delay > 0) {
                Thread.sleep(delay);
            }
            JmxRegistrar.register(ManagementFactory.getPlatformMBeanServer(), holder);
            log.fine("limiter: MBeans registered under " + ObjectNames.DOMAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: cannot register the JMX MBeans; the limiter runs without them", t);
        }
    }
}
