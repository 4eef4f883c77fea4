package dev.limiter.rules.reload;

import dev.limiter.core.clock.Clock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.RuleSetLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one volatile reference to the rules in force, and the place reloads happen.
 *
 * <p>Readers call {@link #current()} (one volatile read) and use that snapshot for the whole request; a reload
 * builds a complete new {@link RuleSet} aside and publishes it with one write, so no reader ever sees a
 * half-built set. Reloads are serialised. A file that fails to load leaves the rules in force untouched and is
 * recorded ({@link #lastError()}); at start-up that means "empty, with an error", and the watcher keeps
 * watching so that fixing the file turns protection on.
 */
public final class RuleSetHolder implements AutoCloseable {

    /** How often the watcher re-checks the file even without file-system events. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);
    /** How long the file must stay quiet after an event before it is read. */
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(200);

    private final Path file;
    private final Clock clock;
    private final LimiterFactory factory;
    private final List<ReloadListener> listeners = new CopyOnWriteArrayList<>();
    private volatile RuleSet current = RuleSet.empty();
    private volatile FileFingerprint loaded = FileFingerprint.MISSING;
    private volatile long reloadCount;
    private volatile long failedReloadCount;
    private volatile long lastReloadMillis;
    private volatile long lastErrorMillis;
    private volatile long lastLoadNanos;
    private volatile RulesException lastError;
    private RulesWatcher watcher;

    private RuleSetHolder(Path file, Clock clock, LimiterFactory factory) {
        this.file = file;
        this.clock = clock;
        this.factory = factory == null ? LimiterFactory.LOCAL : factory;
    }

    /**
     * Loads {@code file}; if it is invalid the holder starts empty and {@link #lastError()} says why.
     * Limiters read time from the shared coarse clock.
     */
    public static RuleSetHolder open(Path file) {
        return open(file, null);
    }

    /** Like {@link #open(Path)} with limiters reading {@code clock} (tests). */
    public static RuleSetHolder open(Path file, Clock clock) {
        return open(file, clock, LimiterFactory.LOCAL);
    }

    /**
     * Like {@link #open(Path, Clock)}, with every new limiter (start-up and reloads) made by {@code factory}:
     * how the agent puts {@code store: redis} rules in Redis.
     */
    public static RuleSetHolder open(Path file, Clock clock, LimiterFactory factory) {
        return open(file, null, clock, factory);
    }

    /**
     * Like {@link #open(Path, Clock, LimiterFactory)} from {@code content}, the file's bytes as the caller read
     * them already (null: read the file), so the file is read once.
     */
    public static RuleSetHolder open(Path file, byte[] content, Clock clock, LimiterFactory factory) {
        RuleSetHolder holder = new RuleSetHolder(file, clock, factory);
        holder.load(false, content);
        return holder;
    }

    /** The rules in force: one volatile read. */
    public RuleSet current() {
        return current;
    }

    /** The file this holder reads. */
    public Path file() {
        return file;
    }

    /**
     * Reads the file again. On success the new set is published and listeners are told; on failure the rules in
     * force stay and the error is recorded.
     *
     * @return true if the new rules are in force
     */
    public boolean reload() {
        return load(true, null);
    }

    /**
     * Loads {@code content} (null: the file, read once here for both the fingerprint and the parse; a file that
     * cannot be read is loaded by path, so the error says why).
     */
    private synchronized boolean load(boolean isReload, byte[] content) {
        long started = System.nanoTime();
        byte[] bytes = content != null ? content : RuleSetLoader.readBytes(file);
        FileFingerprint fingerprint = bytes == null ? FileFingerprint.of(file) : FileFingerprint.of(file, bytes);
        RuleSet previous = current;
        RuleSet next;
        try {
            next = bytes == null ? RuleSetLoader.load(file, previous, clock, factory)
                    : RuleSetLoader.load(file, bytes, previous, clock, factory);
        } catch (RulesException e) {
            loaded = fingerprint;
            lastError = e;
            lastErrorMillis = System.currentTimeMillis();
            if (isReload) {
                failedReloadCount++;
            }
            lastLoadNanos = System.nanoTime() - started;
            for (ReloadListener listener : listeners) {
                try {
                    listener.reloadFailed(e, previous);
                } catch (RuntimeException ignored) {
                    // a listener cannot change the outcome
                }
            }
            return false;
        }
        current = next;
        loaded = fingerprint;
        lastError = null;
        lastReloadMillis = System.currentTimeMillis();
        if (isReload) {
            reloadCount++;
        }
        lastLoadNanos = System.nanoTime() - started;
        for (ReloadListener listener : listeners) {
            try {
                listener.reloaded(previous, next);
            } catch (RuntimeException ignored) {
                // a listener cannot undo a reload
            }
        }
        return true;
    }

    public void addListener(ReloadListener listener) {
        listeners.add(listener);
    }

    public void removeListener(ReloadListener listener) {
        listeners.remove(listener);
    }

    /**
     * How long the last load took to read, parse and compile the file, in nanoseconds; set before the listeners
     * are told, so a listener reads the time of the load it is told about.
     */
    public long lastLoadNanos() {
        return lastLoadNanos;
    }

    /** Successful reloads since start (the initial load is not counted). */
    public long reloadCount() {
        return reloadCount;
    }

    /** Reloads that failed and left the previous rules in force. */
    public long failedReloadCount() {
        return failedReloadCount;
    }

    /** Epoch millis of the last successful load (0 if none). */
    public long lastReloadMillis() {
        return lastReloadMillis;
    }

    /** Epoch millis of the last failed load (0 if none). */
    public long lastErrorMillis() {
        return lastErrorMillis;
    }

    /** Why the last load failed ({@code file:line:col: message} lines), or null if it succeeded. */
    public String lastError() {
        RulesException error = lastError;
        return error == null ? null : error.getMessage();
    }

    /** The problems of the last load, empty if it succeeded. */
    public List<RulesError> lastErrors() {
        RulesException error = lastError;
        return error == null ? List.of() : error.errors();
    }

    /** The fingerprint of the file as of the last load attempt, for the watcher. */
    FileFingerprint loadedFingerprint() {
        return loaded;
    }

    /**
     * Starts watching the file (if not already) with the default poll interval and debounce.
     *
     * @return the watcher; {@link #close()} stops it
     */
    public RulesWatcher startWatching() {
        return startWatching(DEFAULT_POLL_INTERVAL, DEFAULT_DEBOUNCE);
    }

    /** Starts watching with the given fallback poll interval and debounce (tests use short ones). */
    public synchronized RulesWatcher startWatching(Duration pollInterval, Duration debounce) {
        if (watcher == null || watcher.isClosed()) {
            watcher = new RulesWatcher(this, pollInterval, debounce);
            watcher.start();
        }
        return watcher;
    }

    /** The running watcher, or null. */
    public synchronized RulesWatcher watcher() {
        return watcher;
    }

    /** Stops the watcher; the rules in force stay readable. */
    @Override
    public void close() {
        RulesWatcher running;
        synchronized (this) {
            running = watcher;
            watcher = null;
        }
        if (running != null) {
            running.close();
        }
    }
}
