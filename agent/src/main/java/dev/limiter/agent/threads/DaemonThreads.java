package dev.limiter.agent.threads;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's own threads: daemons, so they never hold the JVM up, named {@code limiter-...} for thread dumps. A
 * class, not a lambda: they are made while the application starts, when a lambda's first use spins classes.
 */
public final class DaemonThreads implements ThreadFactory {

    private final String name;
    /** Null: every thread gets {@link #name} as it is; else numbered from 1. */
    private final AtomicInteger count;

    private DaemonThreads(String name, boolean numbered) {
        this.name = name;
        this.count = numbered ? new AtomicInteger() : null;
    }

    /** Threads all named {@code name} (an executor of one thread). */
    public static DaemonThreads named(String name) {
        return new DaemonThreads(name, false);
    }

    /** Threads named {@code prefix} followed by 1, 2, ... (a pool). */
    public static DaemonThreads numbered(String prefix) {
        return new DaemonThreads(prefix, true);
    }

    /** Runs {@code task} on a new daemon thread named {@code name}, started before this returns. */
    public static Thread start(Runnable task, String name) {
        Thread thread = named(name).newThread(task);
        thread.start();
        return thread;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, count == null ? name : name + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
