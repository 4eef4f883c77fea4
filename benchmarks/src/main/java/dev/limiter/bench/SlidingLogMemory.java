package dev.limiter.bench;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import java.util.Locale;

/**
 * Bytes per key of the sliding log at a few limits (its ring is 8 bytes per permit), measured as
 * {@link MemoryPerKey} measures the other strategies: the bucket alone, and the keyed store's total per key (key
 * strings excluded). Fewer keys for larger rings, so the heap stays small.
 *
 * <p>Usage: {@code java <HeapMeter.JVM_FLAGS> -Xmx2g -cp benchmarks.jar dev.limiter.bench.SlidingLogMemory}.
 */
public final class SlidingLogMemory {

    private SlidingLogMemory() {
    }

    public static void main(String[] args) {
        RateLimitStrategy log = OurLimiters.strategy("sliding-log");
        long[][] limitsAndKeys = {{1, 200_000}, {100, 100_000}, {1_000, 20_000}, {10_000, 2_000}};
        for (long[] limitAndKeys : limitsAndKeys) {
            LimitConfig config = LimitConfig.of(limitAndKeys[0], 60_000);
            MemoryPerKey measurement = new MemoryPerKey((int) limitAndKeys[1]);
            double bucket = measurement.perObject(i -> log.newBucket(config));
            double keyed = measurement.perKeyedKey(log, config);
            System.out.println(String.format(Locale.ROOT, "limit %d\tbucket %.1f B\tkeyed %.1f B\t(%d keys)",
                    limitAndKeys[0], bucket, keyed, limitAndKeys[1]));
        }
    }
}
