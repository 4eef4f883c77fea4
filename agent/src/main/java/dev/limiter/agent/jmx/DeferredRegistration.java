package dev.limiter.agent.jmx;

import dev.limiter.agent.threads.DaemonThreads;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.MBeanServer;

/**
 * Work that registers MBeans on the platform MBean server from its own daemon thread once start-up is done: after
 * the {@link JmxGate} or the fixed {@value JmxStarter#DELAY_PROPERTY}, never from premain ({@link JmxStarter} says
 * why). Failures are logged, never thrown. A class, not a lambda: nothing to spin while the application starts.
 */
abstract class DeferredRegistration implements Runnable {

    private final long delay;
    private final CountDownLatch gate;
    private final String what;
    final Logger log;

    /** {@code what}: the warning's subject if registration fails, with what then runs without it. */
    DeferredRegistration(CountDownLatch gate, Logger log, String what) {
        this.delay = JmxStarter.delayOrGate(System.getProperty(JmxStarter.DELAY_PROPERTY), log);
        this.gate = gate;
        this.log = log;
        this.what = what;
    }

    /** True unless {@code -D}{@value JmxStarter#ENABLED_PROPERTY}{@code =false} turned JMX off. */
    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(JmxStarter.ENABLED_PROPERTY, "").trim());
    }

    /** Starts the registering thread, named {@code name}, and returns at once. */
    final Thread start(String name) {
        Thread thread = DaemonThreads.named(name).newThread(this);
        // If this thread creates the platform MBean server, a javax.management.builder.initial class is loaded
        // through the context loader: make it the application's, not the isolated agent loader (which sees
        // only the JDK).
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        thread.start();
        return thread;
    }

    @Override
    public final void run() {
        try {
            JmxStarter.waitForTurn(delay, gate);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        registerNow();
    }

    /**
     * Registers on the calling thread, at once (its caller has waited for start-up to be done), with the system
     * class loader as the context loader while it may create the platform MBean server ({@link #start} says why).
     */
    final void registerNow() {
        Thread current = Thread.currentThread();
        ClassLoader context = current.getContextClassLoader();
        current.setContextClassLoader(ClassLoader.getSystemClassLoader());
        try {
            register(ManagementFactory.getPlatformMBeanServer());
        } catch (Throwable t) {
            log.log(Level.WARNING, "limiter: cannot register " + what, t);
        } finally {
            current.setContextClassLoader(context);
        }
    }

    /** Registers this work's MBeans on {@code server}. */
    abstract void register(MBeanServer server) throws Exception;
}
