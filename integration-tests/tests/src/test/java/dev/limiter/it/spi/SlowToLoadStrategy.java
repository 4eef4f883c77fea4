package dev.limiter.it.spi;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A custom strategy whose creation waits until the file {@code -Dlimiter.it.strategyRelease} exists (at most 60 s),
 * packed into a {@code strategies=} jar ({@link StrategyJar}): the agent registers custom strategies before it
 * parses the rules, so the test decides when the rules come in, whatever the machine's speed. No rule uses it.
 */
public final class SlowToLoadStrategy implements RateLimitStrategy {

    public SlowToLoadStrategy() {
        Path release = Path.of(System.getProperty("limiter.it.strategyRelease", "release"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try {
            while (!Files.exists(release) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return "slow-to-load-for-tests";
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new Bucket();
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return true;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return 0;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return true;
    }
}
