package dev.limiter.bench;

import dev.limiter.core.Outcome;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The {@code long[] out} each caller of our limiter reuses, one per benchmark thread as the agent keeps one per
 * request thread: sharing it between threads would add false sharing that production does not have.
 */
@State(Scope.Thread)
public class ThreadOut {

    final long[] out = Outcome.newArray();
}
