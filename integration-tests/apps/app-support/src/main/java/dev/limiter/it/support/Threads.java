package dev.limiter.it.support;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Virtual threads for the test servers when the JVM has them (Java 21+), found by reflection because the apps
 * compile for Java 17: the Java 25 test pass then runs the servlet and JAX-RS scenarios on virtual threads wherever
 * the server can use them. The launchers ask {@link #virtualAvailable()}; the apps' runtime endpoints
 * report {@link #runtime()}, so the tests check the server really did it.
 */
public final class Threads {

    private static final int VIRTUAL_SINCE = 21;

    private Threads() {
    }

    /** True on a JVM with virtual threads. */
    public static boolean virtualAvailable() {
        return Runtime.version().feature() >= VIRTUAL_SINCE;
    }

    /** A new-virtual-thread-per-task executor; only call when {@link #virtualAvailable()}. */
    public static ExecutorService virtualPerTask() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no virtual threads on Java " + Runtime.version(), e);
        }
    }

    /** {@code java=<feature> thread=<virtual|platform>}: the JVM and the kind of the calling thread. */
    public static String runtime() {
        return "java=" + Runtime.version().feature() + " thread=" + kindOfCurrent();
    }

    /** {@code virtual} or {@code platform}: the kind of the calling thread. */
    public static String kindOfCurrent() {
        if (!virtualAvailable()) {
            return "platform";
        }
        try {
            Method isVirtual = Thread.class.getMethod("isVirtual");
            return (Boolean) isVirtual.invoke(Thread.currentThread()) ? "virtual" : "platform";
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
