package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The bytes-per-key method gives the known size of a known object: an {@link AtomicLong} is a 12-byte header
 * plus one long, padded to 24 bytes (compressed class pointers, the default on 17 and 25). Surefire runs this
 * module's tests with Serial GC, as scripts/bench-core runs {@link MemoryPerKey}.
 */
class HeapMeterTest {

    @Test
    void measuresAnAtomicLongAsTwentyFourBytes() {
        double bytes = new MemoryPerKey(1_000_000).perObject(i -> new AtomicLong(i));

        assertThat(bytes).isBetween(23.0, 25.0);
    }

    @Test
    void measuresALongArrayOfTwoAsThirtyTwoBytes() {
        double bytes = new MemoryPerKey(1_000_000).perObject(i -> new long[2]);

        assertThat(bytes).isBetween(31.0, 33.0);
    }
}
