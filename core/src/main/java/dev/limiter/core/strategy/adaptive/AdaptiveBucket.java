package dev.limiter.core.strategy.adaptive;

import dev.limiter.core.Bucket;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One key's adaptive limit: the calls in flight (slot 0, admitted by CAS below the limit, as a bulkhead), the limit
 * in force (slot 1), and the sampling window its latencies go into.
 *
 * <p>A sample is one atomic add: the window packs its count (high 24 bits) and its sum of microseconds (low 40
 * bits) into one long, so whoever closes the window takes both at once with one swap, and a sample that lands
 * after the swap simply counts in the next window. A window closes when it holds {@link #MIN_SAMPLES} samples and
 * has lasted {@link #MIN_WINDOW_NANOS}; the thread whose sample closes it takes a non-blocking flag (no thread
 * ever waits for it: a thread that finds it taken goes on) and moves the limit. Everything the algorithm keeps
 * is written under that flag only.
 *
 * <p>The no-load latency: the lowest window mean seen, so a single fast call (a health check) cannot set it, and
 * a window that does not gather {@link #MIN_SAMPLES} samples within {@link #MAX_WINDOW_NANOS} is dropped unread
 * (so a key needs about 2 calls a second for its limit to move). It is
 * raised only from uncongested windows (calls stayed below half the limit, or the limit sat at its minimum): at
 * the end of each epoch of {@link #EPOCH_WINDOWS} windows it becomes the lowest such window's mean, if there
 * was one. A service that really got slower is followed, and a sustained overload, whose windows are all
 * congested, cannot drag the reference up and the limit with it.
 *
 * <p>{@link #EPOCH_WINDOWS} windows in a row at the limit (a service that started into overload, whose first
 * window was already queued) may never have shown the no-load latency: then one window runs at half the limit,
 * counting only the calls admitted within it, and its mean, if lower, becomes the estimate. A probe that finds a
 * lower latency is repeated after {@link #MIN_PROBE_GAP} windows, one that finds none waits twice as long as the
 * last (up to {@link #MAX_PROBE_GAP}). Concurrency is never pinned to the minimum for a measurement, and a
 * service that shows an uncongested window now and then is never probed.
 */
public final class AdaptiveBucket extends Bucket {

    static final int MIN_SAMPLES = 10;
    static final long MIN_WINDOW_NANOS = 250_000_000L;
    static final long MAX_WINDOW_NANOS = 5_000_000_000L;
    static final int EPOCH_WINDOWS = 40;
    /** Windows at the limit between probes: after one that found a lower latency, then doubling to the max. */
    static final int MIN_PROBE_GAP = 10;
    static final int MAX_PROBE_GAP = 16 * EPOCH_WINDOWS;

    /** A sample above this many microseconds (about 16.8 s) counts as this: the sums then fit in 40 bits. */
    static final long MAX_SAMPLE_MICROS = (1L << 24) - 1;
    private static final int COUNT_SHIFT = 40;
    private static final long SUM_MASK = (1L << COUNT_SHIFT) - 1;
    /** A window closes by count here at the latest, so 24 bits of count and 40 of sum never overflow. */
    private static final long MAX_WINDOW_SAMPLES = 1L << 16;

    private static final VarHandle WINDOW;
    private static final VarHandle PEAK;
    private static final VarHandle CLOSING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WINDOW = lookup.findVarHandle(AdaptiveBucket.class, "window", long.class);
            PEAK = lookup.findVarHandle(AdaptiveBucket.class, "peak", long.class);
            CLOSING = lookup.findVarHandle(AdaptiveBucket.class, "closing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through WINDOW
    private volatile long window;
    @SuppressWarnings("unused") // through PEAK
    private volatile long peak;
    @SuppressWarnings("unused") // through CLOSING
    private volatile int closing;
    private volatile long windowStart;

    // written under the closing flag only; volatile for readers (JMX)
    private volatile double estimate;
    private volatile long noLoadNanos;
    private volatile long lastMeanNanos;
    private volatile long windows;
    private long epochMinNanos = Long.MAX_VALUE;
    private int epochWindows;
    private int congestedWindows;
    private int probeGap = EPOCH_WINDOWS;
    /** The start of the probe window in progress (0: none): calls admitted before it are not its samples. */
    private volatile long probeStart;

    AdaptiveBucket(long initialLimit, long nowNanos) {
        super(0, initialLimit);
        this.estimate = initialLimit;
        this.windowStart = nowNanos;
    }

    /** The limit in force. */
    public long limit() {
        return slot1();
    }

    /** The no-load latency estimate in nanoseconds (0 before the first window closed). */
    public long noLoadNanos() {
        return noLoadNanos;
    }

    /** The mean latency of the last window closed, in nanoseconds (0 before one closed). */
    public long lastMeanNanos() {
        return lastMeanNanos;
    }

    /** How many windows closed with enough samples so far. */
    public long windows() {
        return windows;
    }

    /** Notes that {@code inFlight} calls run at once (the peak of the window). */
    void notePeak(long inFlight) {
        long seen = (long) PEAK.getOpaque(this);
        while (inFlight > seen && !PEAK.weakCompareAndSet(this, seen, inFlight)) {
            seen = (long) PEAK.getOpaque(this);
        }
    }

    /** Adds one admitted call's latency; closes the window if it is due. */
    void sample(long heldNanos, long nowNanos, AdaptiveSettings settings, LimitAlgorithm algorithm,
            long maxLimit) {
        long probe = probeStart;
        if (probe != 0 && nowNanos - heldNanos - probe < 0) {
            return; // admitted before the probe window began: its latency is the old limit's
        }
        long micros = Math.min(MAX_SAMPLE_MICROS, Math.max(1, heldNanos / 1000));
        long packed = (long) WINDOW.getAndAdd(this, (1L << COUNT_SHIFT) + micros);
        long count = (packed >>> COUNT_SHIFT) + 1;
        long elapsed = nowNanos - windowStart;
        if ((count >= MIN_SAMPLES && elapsed >= MIN_WINDOW_NANOS) || elapsed >= MAX_WINDOW_NANOS || elapsed < 0
                || count >= MAX_WINDOW_SAMPLES) {
            close(nowNanos, settings, algorithm, maxLimit);
        }
    }

    private void close(long nowNanos, AdaptiveSettings settings, LimitAlgorithm algorithm, long maxLimit) {
        if (!CLOSING.compareAndSet(this, 0, 1)) {
            return; // another thread is closing it: this sample counts in the next window
        }
        try {
            long elapsed = nowNanos - windowStart;
            long pending = (long) WINDOW.getVolatile(this);
            long count = pending >>> COUNT_SHIFT;
            boolean due = (count >= MIN_SAMPLES && elapsed >= MIN_WINDOW_NANOS) || elapsed >= MAX_WINDOW_NANOS
                    || elapsed < 0 || count >= MAX_WINDOW_SAMPLES;
            if (!due) {
                return; // closed by another thread just before this one
            }
            long taken = (long) WINDOW.getAndSet(this, 0L);
            long peakInFlight = (long) PEAK.getAndSet(this, Math.max(0, slot0()));
            windowStart = nowNanos;
            count = taken >>> COUNT_SHIFT;
            if (count < MIN_SAMPLES || elapsed >= MAX_WINDOW_NANOS || elapsed < 0) {
                // too few calls to say anything, or spread over a quiet period (a health check now and then), or
                // a clock that stepped back: nothing moves
                return;
            }
            move((taken & SUM_MASK) * 1000 / count, peakInFlight, settings, algorithm, maxLimit);
        } finally {
            CLOSING.setRelease(this, 0);
        }
    }

    /** One window's step: the no-load estimate, then the limit. */
    private void move(long meanNanos, long peakInFlight, AdaptiveSettings settings, LimitAlgorithm algorithm,
            long maxLimit) {
        long limit = limit();
        boolean reachedLimit = peakInFlight * 2 >= limit;
        long noLoadBefore = noLoadNanos;
        if (noLoadNanos == 0 || meanNanos < noLoadNanos) {
            noLoadNanos = meanNanos;
        }
        lastMeanNanos = meanNanos;
        windows++;
        if (probeStart != 0) { // the probe window only measures: its mean may have lowered the estimate above
            probeStart = 0;
            boolean found = meanNanos * 10 < noLoadBefore * 9;
            probeGap = found ? MIN_PROBE_GAP : Math.min(MAX_PROBE_GAP, probeGap * 2);
            setSlot1((long) estimate);
            return;
        }
        boolean uncongested = !reachedLimit || limit <= settings.minLimit();
        if (uncongested) {
            epochMinNanos = Math.min(epochMinNanos, meanNanos);
            congestedWindows = 0;
        }
        if (++epochWindows >= EPOCH_WINDOWS) {
            if (epochMinNanos != Long.MAX_VALUE) {
                noLoadNanos = epochMinNanos; // follows a service that really got slower
            }
            epochMinNanos = Long.MAX_VALUE;
            epochWindows = 0;
        }
        if (!uncongested && ++congestedWindows >= probeGap && (long) estimate > settings.minLimit()) {
            // long at the limit: the no-load latency may never have been seen (a start into overload). One window
            // at half the limit measures it, counting only the calls admitted within it; nothing else moves.
            congestedWindows = 0;
            probeStart = windowStart;
            setSlot1(Math.max(settings.minLimit(), (long) estimate / 2));
            return;
        }
        double next = algorithm.next(estimate, meanNanos, noLoadNanos, reachedLimit);
        next = Math.max(settings.minLimit(), Math.min(maxLimit, next));
        estimate = next;
        setSlot1((long) next);
    }
}
