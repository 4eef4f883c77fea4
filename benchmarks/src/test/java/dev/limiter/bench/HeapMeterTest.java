package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The bytes-per-key method gives the known size of a known object: an {@link AtomicLong} is a 12-byte header
 * plus one long, padded to 24 bytes (compressed class pointers, the default on 17 and 25). Surefire runs this
 * module's tests with Serial GC, as scripts/bench-core runs {@link MemoryPerKey}. Each size is the median of three
 * measurements: something else in the JVM (the test runner's own buffers) can die between the two readings of
 * one, and a busy 2-core host once read a long[2] as 30.5 bytes.
 */
class HeapMeterTest {

    @Test
    void measuresAnAtomicLongAsTwentyFourBytes() {
        assertThat(medianOfThree(i -> new AtomicLong(i))).isBetween(23.0, 25.0);
    }

    @Test
    void measuresALongArrayOfTwoAsThirtyTwoBytes() {
        assertThat(medianOfThree(i -> new long[2])).isBetween(31.0, 33.0);
    }

    private static double medianOfThree(IntFunction<Object> factory) {
        double[] bytes = new double[3];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = new MemoryPerKey(1_000_000).perObject(factory);
        }
        Arrays.sort(bytes);
        return bytes[1];
    }
}
