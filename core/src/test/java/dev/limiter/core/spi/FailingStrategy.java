package dev.limiter.core.spi;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;

/**
 * A custom strategy whose every check throws: how the agent's tests make a rule fail, in a unit test or inside a
 * real server, with no test switch in the product. Shipped as its own jar ({@code limiter-core} classifier
 * {@code failing-strategy}, no services entry: each test registers it the way it needs).
 */
public final class FailingStrategy implements RateLimitStrategy {

    public static final String NAME = "failing-for-tests";
    public static final String MESSAGE = "injected fault";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new Bucket();
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        throw new IllegalStateException(MESSAGE);
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
