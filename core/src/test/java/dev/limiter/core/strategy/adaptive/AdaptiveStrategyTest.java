package dev.limiter.core.strategy.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.strategy.Strategies;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit against a {@link QueueingService} (8 workers, 20 ms a call): it settles near the capacity
 * under overload and stays there (no creep), finds the no-load latency when it starts into overload, does not
 * grow while unused, comes back when a slow period ends, ignores a quiet period's few calls, stays in its bounds,
 * and survives a clock that steps back. Both algorithms, the defaults otherwise.
 */
class AdaptiveStrategyTest {

    private static final long MS = 1_000_000L;
    private static final long CAPACITY = 8;
    private static final long BASE = 20 * MS;

    private static QueueingService service(String algorithm, long initial) {
        return new QueueingService(new AdaptiveSettings(algorithm, 4, initial), 1000, CAPACITY, BASE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gradient", "vegas"})
    void underFourTimesTheCapacityTheLimitSettlesNearItAndDoesNotCreep(String algorithm) {
        QueueingService service = service(algorithm, 20);
        service.run(4, 10); // half the capacity first: the no-load latency is seen
        service.run(4 * CAPACITY, 30); // settling
        long highest = 0;
        long idleWorkers = 0;
        long rounds = 0;
        long end = service.now() + 300_000 * MS; // five minutes of overload
        while (service.now() < end) {
            idleWorkers += Math.max(0, CAPACITY - service.round(4 * CAPACITY));
            rounds++;
            highest = Math.max(highest, service.adaptive().limit());
        }
        assertThat(highest).as("at most twice the capacity: a call waits at most one call's time")
                .isLessThanOrEqualTo(2 * CAPACITY);
        assertThat((double) idleWorkers / (rounds * CAPACITY)).as("the workers' idle share (probe windows)")
                .isLessThan(0.02);
        assertThat(service.adaptive().noLoadNanos()).as("the reference stays the unloaded latency").isEqualTo(BASE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gradient", "vegas"})
    void startingIntoOverloadItFindsTheNoLoadLatency(String algorithm) {
        QueueingService service = service(algorithm, 40); // 5 x the capacity: the first window already queues
        service.run(8 * CAPACITY, 1);
        assertThat(service.adaptive().noLoadNanos()).isGreaterThan(2 * BASE);
        service.run(8 * CAPACITY, 120);
        assertThat(service.adaptive().noLoadNanos()).isEqualTo(BASE);
        assertThat(service.run(8 * CAPACITY, 60)).isLessThanOrEqualTo(2 * CAPACITY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gradient", "vegas"})
    void aLightlyLoadedServiceKeepsItsLimit(String algorithm) {
        QueueingService service = service(algorithm, 20);
        assertThat(service.run(CAPACITY / 2, 300)).as("calls never reached half the limit: no growth").isEqualTo(20);
        assertThat(service.adaptive().limit()).isEqualTo(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gradient", "vegas"})
    void whenASlowPeriodEndsTheLimitComesBackWithinTenSeconds(String algorithm) {
        QueueingService service = service(algorithm, 20);
        service.run(4, 10);
        service.run(2 * CAPACITY, 60);
        long before = service.adaptive().limit();
        service.baseNanos = 4 * BASE; // a dependency got slow: every call takes four times as long
        service.run(2 * CAPACITY, 30);
        long during = service.adaptive().limit();
        assertThat(during).isLessThan(before);
        service.baseNanos = BASE;
        service.run(2 * CAPACITY, 10);
        assertThat(service.adaptive().limit()).as("from %d back to %d within 10 s", during, before)
                .isGreaterThanOrEqualTo(before * 9 / 10);
    }

    @Test
    void aFewFastCallsInAQuietPeriodMoveNothing() {
        QueueingService service = service("gradient", 20);
        service.run(4, 10);
        service.idle(10_000 * MS); // the last window's few calls are dropped with the first health check
        long noLoad = service.adaptive().noLoadNanos();
        long windows = service.adaptive().windows();
        for (int i = 0; i < 50; i++) { // a health check every 2 s: 1 ms each, never 10 in a window
            service.idle(2_000 * MS);
            service.single(MS);
        }
        assertThat(service.adaptive().noLoadNanos()).isEqualTo(noLoad);
        assertThat(service.adaptive().windows()).isEqualTo(windows);
        assertThat(service.adaptive().limit()).isEqualTo(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gradient", "vegas"})
    void theLimitStaysWithinItsBounds(String algorithm) {
        QueueingService service = new QueueingService(new AdaptiveSettings(algorithm, 6, 10), 30, CAPACITY, BASE);
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 200_000; i++) {
            if (i % 1000 == 0) {
                service.baseNanos = (1 + random.nextInt(50)) * MS;
            }
            service.round(random.nextInt(100));
            assertThat(service.adaptive().limit()).isBetween(6L, 30L);
        }
    }

    @Test
    void aClockThatStepsBackDoesNotWedgeTheWindow() {
        AdaptiveStrategy strategy = AdaptiveStrategy.INSTANCE;
        LimitConfig config = LimitConfig.of(1000, 1000);
        AdaptiveBucket bucket = (AdaptiveBucket) strategy.newBucket(config);
        long[] out = Outcome.newArray();
        long now = System.nanoTime() - 3_600_000 * MS; // an hour before the bucket's start
        for (int i = 0; i < 10; i++) {
            assertThat(strategy.check(bucket, config, out)).isTrue();
            strategy.release(bucket, config, BASE, now);
        }
        assertThat(bucket.windows()).as("the window restarted at the stepped clock, its one call dropped").isZero();
        for (int round = 0; round < 5; round++) {
            now += 300 * MS;
            for (int i = 0; i < 10; i++) {
                strategy.check(bucket, config, out);
                strategy.release(bucket, config, BASE, now);
            }
        }
        assertThat(bucket.windows()).as("a window each 300 ms from there").isEqualTo(5);
    }

    @Test
    void settingsAreCheckedAndEqualSettingsAreOneStrategy() {
        assertThatThrownBy(() -> new AdaptiveSettings("aimd", 4, 20)).hasMessageContaining("gradient or vegas");
        assertThatThrownBy(() -> new AdaptiveSettings("gradient", 0, 20)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new AdaptiveSettings("gradient", 10, 5)).hasMessageContaining("below min-limit");
        assertThatThrownBy(() -> AdaptiveStrategy.INSTANCE.validate(LimitConfig.of(3, 1000)))
                .hasMessageContaining("below min-limit 4");
        assertThat(AdaptiveStrategy.of(new AdaptiveSettings("VEGAS", 4, 20)))
                .isEqualTo(AdaptiveStrategy.of(new AdaptiveSettings("vegas", 4, 20)))
                .isNotEqualTo(AdaptiveStrategy.INSTANCE);
        assertThat(AdaptiveStrategy.of(AdaptiveSettings.DEFAULTS)).isSameAs(AdaptiveStrategy.INSTANCE);
        assertThat(Strategies.byName("adaptive")).isSameAs(AdaptiveStrategy.INSTANCE);
    }
}
