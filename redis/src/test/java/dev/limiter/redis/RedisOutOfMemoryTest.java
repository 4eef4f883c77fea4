package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Redis full ({@code maxmemory} reached under {@code noeviction}): the scripts' writes are refused with
 * {@code OOM}. Redis still answers, so this is not an outage: the circuit stays closed, every check that needed a
 * write applies {@code on-failure} and is counted (errors, fallbacks), a check that only reads (a throttled key's
 * rejection) is still decided by Redis, nothing is thrown to the caller, and shared limiting resumes the moment
 * memory is available again.
 */
class RedisOutOfMemoryTest {

    private static final long LONG_WINDOW = LimitConfig.MAX_WINDOW_MILLIS;

    @Test
    void writesRefusedForMemoryApplyOnFailureAndCountWithoutOpeningTheCircuit() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            // exact counts: a generous timeout, so no check falls back for slowness on a loaded machine
            try (RedisStore store = RedisStore.connect(RedisSettings.of(server.uri())
                    .withTimeout(Duration.ofSeconds(2)))) {
                long[] out = Outcome.newArray();
                for (String strategy : List.of("fixed-window", "token-bucket")) {
                    KeyedLimiter limiter = store.limiter("oom-" + strategy, strategy, LimitConfig.of(5, LONG_WINDOW),
                            10);
                    limiter.onFull(OnFull.REJECT);
                    for (int i = 0; i < 5; i++) {
                        assertThat(limiter.tryAcquire("throttled", out)).isTrue();
                    }
                    server.fillMemory();
                    long errors = store.stats().getErrors();
                    long fallbacks = store.stats().getFallbacks();
                    long opens = store.stats().getCircuitOpens();

                    int admitted = 0;
                    for (int i = 0; i < 20; i++) {
                        admitted += limiter.tryAcquire("fresh", out) ? 1 : 0; // a write: refused, on-failure: local
                    }
                    assertThat(admitted).as(strategy + ": this JVM's own limit").isEqualTo(5);
                    assertThat(store.stats().getFallbacks() - fallbacks).isEqualTo(20);
                    assertThat(store.stats().getErrors() - errors).isEqualTo(20);
                    assertThat(store.stats().getLastError()).contains("OOM");
                    assertThat(store.stats().getCircuitOpens()).as("Redis answered: no outage").isEqualTo(opens);
                    assertThat(store.state()).isEqualTo(StoreState.UP);

                    long beforeRead = store.stats().getFallbacks();
                    assertThat(limiter.tryAcquire("throttled", out)).as(strategy + ": a rejection only reads")
                            .isFalse();
                    assertThat(store.stats().getFallbacks()).as("decided by Redis").isEqualTo(beforeRead);

                    server.unlimitMemory();
                    long fallbacksBefore = store.stats().getFallbacks();
                    int shared = 0;
                    for (int i = 0; i < 8; i++) {
                        shared += limiter.tryAcquire("after", out) ? 1 : 0;
                    }
                    assertThat(shared).as(strategy + ": Redis decides again at once").isEqualTo(5);
                    assertThat(store.stats().getFallbacks()).isEqualTo(fallbacksBefore);
                    System.out.println("out of memory, " + strategy + ": " + store.stats());
                    try (var j = server.jedis()) {
                        j.flushAll();
                    }
                }
            }
        }
    }
}
