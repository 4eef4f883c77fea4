package dev.limiter.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every benchmark class extends, for JMH's settings in one place (JMH reads them from a benchmark's
 * superclasses): one fork, 3 x 1 s warm-up, 5 x 1 s measurement, average time in nanoseconds. That keeps the
 * whole suite (about 35 runs at 1 and 2 threads) under ten minutes on two cores, as {@code scripts/bench-core}
 * promises, while each run still reaches C2's steady state. A command line {@code -f/-wi/-i} overrides it for a
 * longer run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class BenchmarkDefaults {
}
