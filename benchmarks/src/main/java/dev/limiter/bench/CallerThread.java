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
 * <p>Why the tally: an allowed-path benchmark that starts getting rejections (a limit run out) would quietly
 * measure the cheaper rejected path. Every benchmark, ours and the peers', passes its decision through
 * {@link #expectAllowed} or {@link #expectRejected}: a counter increment and one predictable branch, the same
 * cost on both sides. An iteration fails when more than {@link #TOLERATED_FRACTION} of its calls left the path.
 * Why tolerate any: our limiters read a coarse clock that a timer thread advances; on a loaded two-core machine
 * that thread can be held off for tens of milliseconds (seen: 9 % of one warm-up iteration), long enough for
 * the sliding window's budget (2,000,000 per 2 ms, its counters' maximum, lasts 22 ms at 90 million calls a
 * second) to run out in between. A rejection costs about half an admission, so 1 % of them moves the average
 * by well under the noise, while a benchmark that has slipped onto the wrong path still fails.
 */
@State(Scope.Thread)
public class CallerThread {

    static final double TOLERATED_FRACTION = 1e-2;

    final long[] out = Outcome.newArray();
    private long calls;
    private long unexpected;

    boolean expectAllowed(boolean allowed) {
        calls++;
        if (!allowed) {
            unexpected++;
        }
        return allowed;
    }

    boolean expectRejected(boolean allowed) {
        calls++;
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
        long off = unexpected;
        long total = calls;
        unexpected = 0;
        calls = 0;
        if (off > total * TOLERATED_FRACTION) {
            throw new IllegalStateException(off + " of " + total + " calls in this iteration did not take the"
                    + " measured path");
        }
    }
}
