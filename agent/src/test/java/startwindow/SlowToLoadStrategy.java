package startwindow;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;

/**
 * A custom strategy (packed into a {@code strategies=} jar by {@code StartWindowJarLayoutTest}) whose creation
 * takes {@code -Dstartwindow.loadMillis} (default 2000): the agent registers custom strategies before it parses
 * the rules, so this stretches the time the rules take to load at start-up, whatever the machine's speed. No
 * rule uses it.
 */
public final class SlowToLoadStrategy implements RateLimitStrategy {

    public SlowToLoadStrategy() {
        try {
            Thread.sleep(Long.getLong("startwindow.loadMillis", 2_000));
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
