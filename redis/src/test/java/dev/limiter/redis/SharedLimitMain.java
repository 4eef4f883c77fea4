package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.Jedis;

/**
 * A separate JVM for {@link ForkedJvmsTest}: checks one key against a shared Redis from several threads and
 * prints what the test needs to check the strategy's bound across JVMs.
 *
 * <p>Arguments: uri, rule id, strategy, limit, window millis, threads, then either a number of attempts per
 * thread, or {@code for:<run millis>}: the JVM prints {@code ready} once connected, reads the start instant
 * (epoch millis) from its standard input, and every thread checks from that instant until the run is over (so
 * the JVMs run together whatever their start-up time on a busy machine). Output lines:
 * <ul>
 *   <li>{@code admitted=N errors=E}, always;</li>
 *   <li>{@code first=T last=T}: epoch millis before the first check and after the reply of the last admitted
 *       one (timed runs; Redis runs on this host, so its {@code TIME} and this clock are one clock);</li>
 *   <li>{@code window=S admitted=N lastAt=T} per window of a sliding window (S = window start, epoch seconds;
 *       T = epoch millis after the reply of the window's last admission);</li>
 *   <li>{@code maxInFlight=N} for concurrency: the most calls this JVM saw in flight across all JVMs, counted in
 *       a separate Redis key between a permit's acquire and its release.</li>
 * </ul>
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
        try (RedisStore store = RedisStore.connect(RedisSettings.of(uri).withTimeout(Duration.ofSeconds(2)))) {
            if (store.state() != StoreState.UP) {
                System.out.println("error=store " + store.state());
                System.exit(2);
            }
            KeyedLimiter limiter = store.limiter(rule, strategy, LimitConfig.of(limit, window), 100);
            if (!args[6].startsWith("for:")) {
                int admitted = Contention.hammer(List.of(limiter), threads, Integer.parseInt(args[6]), "shared-key");
                System.out.println("admitted=" + admitted + " errors=" + store.stats().getErrors());
                return;
            }
            System.out.println("ready");
            System.out.flush();
            String start = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            Run run = new Run(limiter, URI.create(uri), rule, window, Long.parseLong(start.trim()),
                    Long.parseLong(args[6].substring(4)));
            run.go(threads);
            run.print(store.stats().getErrors());
        }
    }

    /** A timed run of several threads on one key, with what each strategy's bound needs recorded. */
    private static final class Run {
        private final KeyedLimiter limiter;
        private final URI uri;
        private final String inFlightKey;
        private final long window;
        private final long startAt;
        private final long endAt;
        private final boolean concurrency;
        private final AtomicInteger admitted = new AtomicInteger();
        private final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
        private final AtomicLong last = new AtomicLong();
        private final AtomicLong maxInFlight = new AtomicLong();
        /** Sliding window: window start (epoch seconds) -> {admitted, epoch millis after the last admission}. */
        private final Map<Long, long[]> windows = new TreeMap<>();

        Run(KeyedLimiter limiter, URI uri, String rule, long window, long startAt, long runMillis) {
            this.limiter = limiter;
            this.uri = uri;
            this.inFlightKey = "test-in-flight:" + rule;
            this.window = window;
            this.startAt = startAt;
            this.endAt = startAt + runMillis;
            this.concurrency = "concurrency".equals(limiter.strategy().name());
        }

        void go(int threads) throws InterruptedException {
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(this::work);
                thread.start();
                all.add(thread);
            }
            for (Thread thread : all) {
                thread.join();
            }
        }

        private void work() {
            long[] out = Outcome.newArray();
            try (Jedis counter = concurrency ? new Jedis(uri.getHost(), uri.getPort(), 2000) : null) {
                long wait = startAt - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                first.accumulateAndGet(System.currentTimeMillis(), Math::min);
                while (System.currentTimeMillis() < endAt) {
                    if (!limiter.tryAcquire("shared-key", out)) {
                        continue;
                    }
                    long at = System.currentTimeMillis();
                    admitted.incrementAndGet();
                    last.accumulateAndGet(at, Math::max);
                    if (concurrency) {
                        // counted while the permit is held: never more than the permits in flight
                        maxInFlight.accumulateAndGet(counter.incr(inFlightKey), Math::max);
                        Thread.sleep(3);
                        counter.decr(inFlightKey);
                        limiter.release("shared-key");
                    } else if (out[Outcome.RESET_EPOCH_SECONDS] > 0 && "sliding-window".equals(
                            limiter.strategy().name())) {
                        // the script's reset is the window's start + 2 windows
                        record(out[Outcome.RESET_EPOCH_SECONDS] - 2 * window / 1000, at);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private synchronized void record(long windowStartSeconds, long at) {
            long[] w = windows.computeIfAbsent(windowStartSeconds, k -> new long[2]);
            w[0]++;
            w[1] = Math.max(w[1], at);
        }

        synchronized void print(long errors) {
            System.out.println("admitted=" + admitted.get() + " errors=" + errors);
            System.out.println("first=" + first.get() + " last=" + last.get());
            for (Map.Entry<Long, long[]> w : windows.entrySet()) {
                System.out.println("window=" + w.getKey() + " admitted=" + w.getValue()[0] + " lastAt="
                        + w.getValue()[1]);
            }
            if (concurrency) {
                System.out.println("maxInFlight=" + maxInFlight.get());
            }
        }
    }
}
