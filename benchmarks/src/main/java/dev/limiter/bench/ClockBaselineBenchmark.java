package dev.limiter.bench;

import dev.limiter.core.clock.Clock;
import dev.limiter.core.clock.CoarseClock;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Floors that explain the table: any limiter must read a clock and publish its new state with at least one CAS,
 * so {@code System.currentTimeMillis()} alone and "clock read + one CAS on a shared word" are what a limiter
 * built on the system clock cannot beat. Our strategies read a coarse clock instead (a volatile field a timer
 * advances), which is why they can come in under these floors.
 */
@State(Scope.Benchmark)
public class ClockBaselineBenchmark extends BenchmarkDefaults {

    private final AtomicLong word = new AtomicLong();
    private final Clock coarse = CoarseClock.shared();

    @Benchmark
    public long systemCurrentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Benchmark
    public boolean currentTimeMillisPlusCas(Blackhole blackhole) {
        long now = System.currentTimeMillis();
        long seen = word.get();
        blackhole.consume(now);
        return word.compareAndSet(seen, seen + 1);
    }

    /** What our strategies pay for time: one read of the field the coarse clock's timer thread refreshes. */
    @Benchmark
    public long coarseClockMillis() {
        return coarse.millis();
    }
}
