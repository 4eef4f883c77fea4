package dev.limiter.rules.reload;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Reloads the rules when the file changes, on one daemon thread.
 *
 * <p>It watches the file's directory, not the file: editors save by writing a temporary file and renaming it
 * over the original, and Kubernetes ConfigMap volumes swap a {@code ..data} symlink, so the file's own inode
 * (and a watch on it) goes stale, while the directory sees every one of those changes. Events only wake the
 * thread; the decision is a {@link FileFingerprint} (size, mtime and content hash through symlinks) compared
 * with the one of the last load, so duplicate or unrelated events cost a hash and nothing else. A burst of
 * events is debounced (the file must stay quiet for the debounce time, waiting at most 20 debounce times in
 * all), so a burst whose writes are closer than that is read once, after its last write; a half-written file is
 * read only under longer pauses or constant churn, and then the load fails, the old rules stay and the next
 * event fixes it. Where the directory cannot be watched (some network file systems), or events are lost, the
 * poll interval re-checks the file anyway.
 */
public final class RulesWatcher implements AutoCloseable {

    /**
     * The longest a burst can delay a check, in debounce times: constant churn still reloads. A time bound, not
     * a count of wake-ups, so a quick burst of many writes (a script appending line by line) is still one read.
     */
    private static final long MAX_DEBOUNCE_WAITS = 20;

    private final RuleSetHolder holder;
    private final long pollMillis;
    private final long debounceMillis;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private volatile WatchService watchService;
    private volatile boolean watching;
    private volatile long checks;

    RulesWatcher(RuleSetHolder holder, Duration pollInterval, Duration debounce) {
        this.holder = holder;
        this.pollMillis = Math.max(10, pollInterval.toMillis());
        this.debounceMillis = Math.max(0, debounce.toMillis());
        this.thread = new Thread(new Loop(this), "limiter-rules-watcher");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** True once {@link #close()} has been called. */
    public boolean isClosed() {
        return closed.getCount() == 0;
    }

    /** How many times the file has been compared with the last load (for tests and diagnostics). */
    public long checks() {
        return checks;
    }

    /** True if the directory is being watched for events; false while the watcher only polls. */
    public boolean usesEvents() {
        return watching;
    }

    /** Stops the thread and releases the watch; waits briefly for the thread to end. */
    @Override
    public void close() {
        closed.countDown();
        WatchService service = watchService;
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        thread.interrupt();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        WatchKey key = register();
        while (!isClosed()) {
            try {
                boolean event = waitForEvent(key);
                if (isClosed()) {
                    return;
                }
                if (event) {
                    debounce();
                }
                if (key == null || !key.isValid()) {
                    key = register(); // the directory was replaced or did not exist yet: watch it now
                }
                check();
            } catch (ClosedWatchServiceException e) {
                return;
            } catch (InterruptedException e) {
                if (isClosed()) {
                    return;
                }
            } catch (RuntimeException e) {
                // keep watching: a transient file-system error must not end live reload
            }
        }
    }

    private void check() {
        checks++;
        if (!FileFingerprint.of(holder.file()).equals(holder.loadedFingerprint())) {
            holder.reload();
        }
    }

    private WatchKey register() {
        Path directory = holder.file().toAbsolutePath().getParent();
        try {
            WatchService service = watchService;
            if (service == null) {
                service = FileSystems.getDefault().newWatchService();
                watchService = service;
                if (isClosed()) {
                    service.close();
                    return null;
                }
            }
            WatchKey key = directory.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
            watching = true;
            return key;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            watching = false;
            return null; // polling only, until the directory can be registered
        }
    }

    /** Waits up to the poll interval; true if a directory event arrived. */
    private boolean waitForEvent(WatchKey registered) throws InterruptedException {
        WatchService service = watchService;
        if (service == null || registered == null) {
            closed.await(pollMillis, TimeUnit.MILLISECONDS);
            return false;
        }
        WatchKey key = service.poll(pollMillis, TimeUnit.MILLISECONDS);
        if (key == null) {
            return false;
        }
        key.pollEvents();
        key.reset();
        return true;
    }

    /**
     * Waits until no event has arrived for the debounce time, or until {@link #MAX_DEBOUNCE_WAITS} debounce times
     * have passed since the burst began.
     */
    private void debounce() throws InterruptedException {
        WatchService service = watchService;
        if (service == null || debounceMillis == 0) {
            return;
        }
        long quietNanos = TimeUnit.MILLISECONDS.toNanos(debounceMillis);
        long deadline = System.nanoTime() + MAX_DEBOUNCE_WAITS * quietNanos;
        for (;;) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            WatchKey key = service.poll(Math.min(quietNanos, left), TimeUnit.NANOSECONDS);
            if (key == null) {
                return;
            }
            key.pollEvents();
            key.reset();
        }
    }

    /**
     * The thread's body. A class, not {@code this::run}: the watcher starts while the application does, and a
     * method reference's first use spins classes and method handles.
     */
    private static final class Loop implements Runnable {

        private final RulesWatcher watcher;

        Loop(RulesWatcher watcher) {
            this.watcher = watcher;
        }

        @Override
        public void run() {
            watcher.run();
        }
    }
}
