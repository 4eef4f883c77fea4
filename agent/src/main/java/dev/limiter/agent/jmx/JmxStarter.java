package dev.limiter.agent.jmx;

import dev.limiter.rules.reload.RuleSetHolder;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;
import javax.management.MBeanServer;

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
        return DeferredRegistration.enabled() ? start(holder, log, JmxGate.FIRST_REQUEST) : null;
    }

    /**
     * Registers the rules' MBeans on the calling thread, now (or nothing when JMX is off): for a caller that has
     * waited for start-up to be done ({@link #awaitStartupDone}); failures are logged, never thrown.
     */
    public static void registerNow(RuleSetHolder holder, Logger log) {
        if (DeferredRegistration.enabled()) {
            new Registration(holder, null, log).registerNow();
        }
    }

    /** {@link #start(RuleSetHolder, Logger)} with the gate the default registration waits for. */
    static Thread start(RuleSetHolder holder, Logger log, CountDownLatch gate) {
        return new Registration(holder, gate, log).start("limiter-jmx-start");
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

    /** Set once a wait of {@link #awaitStartupDone} has ended: later ones return at once. */
    private static volatile boolean startupDone;

    /**
     * Waits as the MBeans' registration does (the first request, or {@value #DELAY_PROPERTY}): for other work
     * that belongs after start-up (start-up's phase 8, the metrics endpoint). Once one wait has ended, start-up
     * is done for every later caller: the moment is not waited for twice (a second 10 s without requests).
     */
    public static void awaitStartupDone(Logger log) throws InterruptedException {
        if (!startupDone) {
            waitForTurn(delayOrGate(System.getProperty(DELAY_PROPERTY), log), JmxGate.FIRST_REQUEST);
            startupDone = true;
        }
    }

    /** Waits as {@code delay} says: the gate ({@link #AFTER_FIRST_REQUEST}) or that many milliseconds. */
    static void waitForTurn(long delay, CountDownLatch gate) throws InterruptedException {
        if (delay == AFTER_FIRST_REQUEST) {
            JmxGate.await(gate);
        } else if (delay > 0) {
            Thread.sleep(delay);
        }
    }

    /** Registers the rules' MBeans of {@code holder}. */
    private static final class Registration extends DeferredRegistration {

        private final RuleSetHolder holder;

        Registration(RuleSetHolder holder, CountDownLatch gate, Logger log) {
            super(gate, log, "the JMX MBeans; the limiter runs without them");
            this.holder = holder;
        }

        @Override
        void register(MBeanServer server) throws Exception {
            JmxRegistrar.register(server, holder);
            log.fine("limiter: MBeans registered under " + ObjectNames.DOMAIN);
        }
    }
}
