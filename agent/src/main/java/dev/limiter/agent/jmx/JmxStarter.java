package dev.limiter.agent.jmx;

import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers the MBeans on the platform MBean server from a daemon thread, after start-up.
 *
 * <p>Never from premain: the first {@code ManagementFactory.getPlatformMBeanServer()} fixes the MBean server
 * builder and initialises {@code java.util.logging}, which stops servers that install their own (WildFly would
 * not start; OpenTelemetry's agent added a delay for the same reason, PR #11151). By default the thread waits
 * for the application's first request ({@link JmxGate}, at most {@value JmxGate#MAX_WAIT_MILLIS} ms), so the
 * MBean server's creation does not compete with the application's start-up; {@value #DELAY_PROPERTY} gives a
 * fixed delay in milliseconds instead (tests use 0 to be deterministic; a value that is not a number means
 * {@value #DEFAULT_DELAY_MILLIS}); {@code -D}{@value #ENABLED_PROPERTY}{@code =false} turns JMX off. The agent opens no connector:
 * remote access, if wanted, is the JDK's own {@code com.sun.management.jmxremote.*}.
 */
public final class JmxStarter {

    /** Milliseconds to wait after start-up before touching JMX, instead of waiting for the first request. */
    public static final String DELAY_PROPERTY = "limiter.jmx.delay";
    /** {@code false} registers no MBeans at all. */
    public static final String ENABLED_PROPERTY = "limiter.jmx";
    static final long DEFAULT_DELAY_MILLIS = 500;
    /** The default: wait for the {@link JmxGate} (the first request, at most {@value JmxGate#MAX_WAIT_MILLIS} ms). */
    static final long AFTER_FIRST_REQUEST = -1;

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
        return start(holder, log, JmxGate.FIRST_REQUEST);
    }

    /** {@link #start(RuleSetHolder, Logger)} with the gate the default registration waits for. */
    static Thread start(RuleSetHolder holder, Logger log, CountDownLatch gate) {
        long delay = delayOrGate(System.getProperty(DELAY_PROPERTY), log);
        Thread thread = new Thread(new Registration(holder, delay, gate, log), "limiter-jmx-start");
        thread.setDaemon(true);
        // If this thread creates the platform MBean server, a javax.management.builder.initial class is loaded
        // through the context loader: make it the application's, not the isolated agent loader (which sees
        // only the JDK).
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.start();
        return thread;
    }

    /** The explicit delay, or {@link #AFTER_FIRST_REQUEST} when none is given. */
    static long delayOrGate(String text, Logger log) {
        return text == null || text.isBlank() ? AFTER_FIRST_REQUEST : delayMillis(text, log);
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

    /** The thread's work (a class, not a lambda: nothing to spin while the application starts). */
    private static final class Registration implements Runnable {

        private final RuleSetHolder holder;
        private final long delay;
        private final CountDownLatch gate;
        private final Logger log;

        Registration(RuleSetHolder holder, long delay, CountDownLatch gate, Logger log) {
            this.holder = holder;
            this.delay = delay;
            this.gate = gate;
            this.log = log;
        }

        @Override
        public void run() {
            register(holder, delay, gate, log);
        }
    }

    /**
     * Waits as the MBeans' registration does (the first request, or {@value #DELAY_PROPERTY}): for other work
     * that belongs after start-up (the metrics endpoint).
     */
    public static void awaitStartupDone(Logger log) throws InterruptedException {
        waitForTurn(delayOrGate(System.getProperty(DELAY_PROPERTY), log), JmxGate.FIRST_REQUEST);
    }

    /** Waits as {@code delay} says: the gate ({@link #AFTER_FIRST_REQUEST}) or that many milliseconds. */
    static void waitForTurn(long delay, CountDownLatch gate) throws InterruptedException {
        if (delay == AFTER_FIRST_REQUEST) {
            JmxGate.await(gate);
        } else if (delay > 0) {
            Thread.sleep(delay);
        }
    }

    private static void register(RuleSetHolder holder, long delay, CountDownLatch gate, Logger log) {
        try {
            waitForTurn(delay, gate);
            JmxRegistrar.register(ManagementFactory.getPlatformMBeanServer(), holder);
            log.fine("limiter: MBeans registered under " + ObjectNames.DOMAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: cannot register the JMX MBeans; the limiter runs without them", t);
        }
    }
}
