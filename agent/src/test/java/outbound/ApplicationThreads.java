package outbound;

/**
 * Live threads other than the agent's own start-up work: threads named {@code limiter-...} and the JDK's file
 * watcher that the agent's reload starts come once, whenever start-up finishes (after the first request), and
 * are not what a call path adds. What a phase of calls adds is counted with this.
 */
final class ApplicationThreads {

    private ApplicationThreads() {
    }

    static int count() {
        return names().size();
    }

    /**
     * Their names, for a report of what a phase added: the threads of the caller's group, as
     * {@link Thread#activeCount} counts them (on Java 25 the common pool's workers are in a group of their own).
     */
    static java.util.List<String> names() {
        java.util.List<String> names = new java.util.ArrayList<>();
        Thread[] threads = new Thread[Thread.activeCount() + 16];
        int count = Thread.currentThread().getThreadGroup().enumerate(threads);
        for (int i = 0; i < count; i++) {
            String name = threads[i].getName();
            if (!name.startsWith("limiter-") && !name.equals("FileSystemWatchService")) {
                names.add(name);
            }
        }
        return names;
    }
}
