package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;

/**
 * The Redis store's throughput and latency against a running Redis, for {@code scripts/bench-redis}: checks per
 * second and p50/p99 of a whole check (as the request thread sees it), single key and many keys, 1 and 8 threads,
 * with the round trips per check counted by the server ({@code INFO commandstats} deltas of client commands).
 *
 * <p>Arguments: uri, seconds per scenario (default 5), strategies (default fixed-window,token-bucket).
 * Prints one markdown table row per scenario.
 */
public final class RedisBench {

    /** Commands our scripts run inside the server: counted by commandstats, but not round trips. */
    private static final Set<String> SCRIPT_INNER = Set.of("time", "hmget", "hset", "pexpire", "hincrby", "hdel",
            "hgetall", "hexists");

    private RedisBench() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 5;
        String[] strategies = (args.length > 2 ? args[2] : "fixed-window,token-bucket").split(",");
        java.net.URI parsed = java.net.URI.create(uri);
        RedisSettings settings = RedisSettings.of(uri).withTimeout(Duration.ofMillis(500)).withPoolSize(16);
        System.out.println("| strategy | batch | keys | threads | checks/s | p50 us | p99 us | p99.9 us | round trips/check |");
        System.out.println("|---|---:|---|---|---:|---:|---:|---:|---:|");
        try (RedisStore store = RedisStore.connect(settings);
                RedisStore batched = RedisStore.connect(settings.withBatch(BATCH));
                Jedis admin = new Jedis(parsed.getHost(), parsed.getPort(), 5000)) {
            if (store.state() != StoreState.UP) {
                throw new IllegalStateException("Redis is not reachable at " + uri);
            }
            for (String strategy : strategies) {
                // a limit no scenario reaches: every check is a full admission (the expensive path: a write)
                KeyedLimiter limiter = store.limiter("bench-" + strategy, strategy,
                        LimitConfig.of(2_000_000, LimitConfig.MAX_WINDOW_MILLIS), 1000);
                for (int keys : new int[] {1, 100_000}) {
                    for (int threads : new int[] {1, 8}) {
                        run(limiter, admin, strategy, keys, threads, Math.min(1.0, seconds / 5)); // warm-up
                        admin.flushAll();
                        Result r = run(limiter, admin, strategy, keys, threads, seconds);
                        print(strategy, 1, keys, threads, r);
                    }
                }
                // batching on a hot key: one round trip reserves BATCH permits (the limit is never reached)
                KeyedLimiter hot = batched.limiter("bench-batched-" + strategy, strategy,
                        LimitConfig.of(1_000_000_000, 3_600_000), 1000);
                for (int threads : new int[] {1, 8}) {
                    run(hot, admin, strategy, 1, threads, Math.min(1.0, seconds / 5));
                    admin.flushAll();
                    print(strategy, BATCH, 1, threads, run(hot, admin, strategy, 1, threads, seconds));
                }
            }
            System.out.println();
            System.out.println("store: " + store.stats());
        }
    }

    private static final int BATCH = 20;

    private static void print(String strategy, int batch, int keys, int threads, Result r) {
        // a p50 of 0 us is a local CAS of a batched check: below the histogram's 1 us resolution
        System.out.printf("| %s | %d | %s | %d | %,.0f | %s | %d | %d | %.3f |%n", strategy, batch,
                keys == 1 ? "1" : "100k", threads, r.checks / r.seconds, r.p50 == 0 ? "<1" : r.p50, r.p99, r.p999,
                (double) r.roundTrips / r.checks);
    }

    private record Result(long checks, double seconds, long p50, long p99, long p999, long roundTrips) {
    }

    private static Result run(KeyedLimiter limiter, Jedis admin, String strategy, int keys, int threads,
            double seconds) throws InterruptedException {
        String[] names = new String[keys];
        for (int i = 0; i < keys; i++) {
            names[i] = "key-" + i;
        }
        LatencyHistogram latency = new LatencyHistogram();
        LongAdder checks = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        admin.configResetStat();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread w = new Thread(() -> {
                long[] out = Outcome.newArray();
                int i = seed * 7919;
                while (running.get()) {
                    String key = names[keys == 1 ? 0 : (i = (i + 40_503) % keys)];
                    long start = System.nanoTime();
                    limiter.tryAcquire(key, out);
                    latency.record((System.nanoTime() - start) / 1000);
                    checks.increment();
                }
            });
            workers.add(w);
        }
        long start = System.nanoTime();
        workers.forEach(Thread::start);
        Thread.sleep((long) (seconds * 1000));
        running.set(false);
        for (Thread w : workers) {
            w.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long trips = clientCalls(admin);
        return new Result(checks.sum(), elapsed, latency.percentile(0.5), latency.percentile(0.99),
                latency.percentile(0.999), trips);
    }

    /** Client commands since CONFIG RESETSTAT, without script-internal ones, INFO and CONFIG. */
    static long clientCalls(Jedis admin) {
        long total = 0;
        for (String line : admin.info("commandstats").split("\\r?\\n")) {
            int from = line.indexOf("calls=");
            if (!line.startsWith("cmdstat_") || from < 0) {
                continue;
            }
            String command = line.substring(8, line.indexOf(':'));
            if (SCRIPT_INNER.contains(command) || command.equals("info") || command.startsWith("config")) {
                continue;
            }
            total += Long.parseLong(line.substring(from + 6, line.indexOf(',', from)));
        }
        return total;
    }
}
