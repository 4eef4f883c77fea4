package dev.limiter.bench;

import dev.limiter.core.Outcome;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One benchmark thread playing a request thread: the {@code long[] out} it reuses (one per thread, as the agent
 * keeps one per request thread; sharing one would add false sharing production does not have), and a tally of
 * decisions that were not the one the benchmark claims to measure.
 *
 * <p>Why the tally: an allowed-path benchmark that starts getting rejections (a limit run out because the
 * coarse clock stalled, say) would quietly measure the cheaper rejected path. Every benchmark, ours and the
 * peers', passes its decision through {@link #expectAllowed} or {@link #expectRejected}: one predictable branch,
 * the same cost on both sides, and the iteration fails if a single call left the path.
 */
@State(Scope.Thread)
public class CallerThread {

    final long[] out = Outcome.newArray();
    private long unexpected;

    boolean expectAllowed(boolean allowed) {
        if (!allowed) {
            unexpected++;
        }
        return allowed;
    }

    boolean expectRejected(boolean allowed) {
        if (allowed) {
            unexpected++;
        }
        return allowed;
    }

    long unexpected() {
        return unexpected;
    }

    @TearDown(Level.Iteration)
    public void noCallLeftTheMeasuredPath() {
        if (unexpected != 0) {
            long count = unexpected;
            unexpected = 0;
            throw new IllegalStateException(count + " calls in this iteration did not take the measured path");
        }
    }
}
