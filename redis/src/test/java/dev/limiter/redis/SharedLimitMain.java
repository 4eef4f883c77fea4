package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import java.time.Duration;
import java.util.List;

/**
 * A separate JVM for {@link ForkedJvmsTest}: checks one key against a shared Redis from several threads and
 * prints {@code admitted=N}.
 *
 * <p>Arguments: uri, rule id, strategy, limit, window millis, threads, attempts per thread.
 */
public final class SharedLimitMain {

    private SharedLimitMain() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String rule = args[1];
        String strategy = args[2];
        long limit = Long.parseLong(args[3]);
        long window = Long.parseLong(args[4]);
        int threads = Integer.parseInt(args[5]);
        int attempts = Integer.parseInt(args[6]);
        try (RedisStore store = RedisStore.connect(RedisSettings.of(uri).withTimeout(Duration.ofSeconds(2)))) {
            if (store.state() != StoreState.UP) {
                System.out.println("error=store " + store.state());
                System.exit(2);
            }
            KeyedLimiter limiter = store.limiter(rule, strategy, LimitConfig.of(limit, window), 100);
            int admitted = Contention.hammer(List.of(limiter), threads, attempts, "shared-key");
            System.out.println("admitted=" + admitted + " errors=" + store.stats().getErrors());
        }
    }
}
