package dev.limiter.agent.jmx;

import dev.limiter.agent.threads.DaemonThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Tells the {@link JmxRegistrar} that a {@code @Limit} annotation declared a new rule. It is told on the thread
 * that loads the annotated class, inside the class file transformer, where registering an MBean (class loading,
 * the MBean server's locks) must not happen: the sync runs on a daemon thread of its own.
 */
final class AnnotationSync implements Runnable {

    private final JmxRegistrar registrar;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(DaemonThreads.named("limiter-jmx-annotations"));

    AnnotationSync(JmxRegistrar registrar) {
        this.registrar = registrar;
    }

    @Override
    public void run() {
        worker.execute(new Sync(registrar));
    }

    void close() {
        worker.shutdown();
    }

    /** The work (a class, not a lambda). */
    private static final class Sync implements Runnable {

        private final JmxRegistrar registrar;

        Sync(JmxRegistrar registrar) {
            this.registrar = registrar;
        }

        @Override
        public void run() {
            registrar.sync();
        }
    }
}
