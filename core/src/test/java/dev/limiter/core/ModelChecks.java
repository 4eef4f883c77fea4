package dev.limiter.core;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The Lincheck settings every model test of core shares, sized so each test takes seconds in CI.
 *
 * <p>A longer run multiplies the scenarios tried (iterations) and the interleavings or runs per scenario
 * (invocations): {@code mvn -B -pl core verify -Dtest='*ModelTest' -Dlimiter.lincheck.scale=20}.
 */
public final class ModelChecks {

    /** Multiplies iterations and invocations; 1 in CI. */
    public static final int SCALE = Integer.getInteger("limiter.lincheck.scale", 1);

    private ModelChecks() {
    }

    /**
     * The model checker: {@code threads} threads of {@code actors} operations each, plus a few sequential ones
     * before and after (the state the race starts from, and what it left behind).
     */
    public static ModelCheckingOptions modelChecking(int threads, int actors, int iterations, int invocations) {
        return new ModelCheckingOptions()
                .threads(threads)
                .actorsPerThread(actors)
                .actorsBefore(2)
                .actorsAfter(2)
                .iterations(iterations * SCALE)
                .invocationsPerIteration(invocations * SCALE);
    }

    /** Stress mode: the same scenarios run on real threads, as many times as {@code invocations}. */
    public static StressOptions stress(int threads, int actors, int iterations, int invocations) {
        return new StressOptions()
                .threads(threads)
                .actorsPerThread(actors)
                .actorsBefore(2)
                .actorsAfter(2)
                .iterations(iterations * SCALE)
                .invocationsPerIteration(invocations * SCALE);
    }
}
