package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;

/**
 * The Redis store's checks before, during and after each fault, for {@code scripts/bench-redis-faults}: checks
 * per second, p50/p99/max of a whole check as the request thread sees it, what the store counted (fallbacks,
 * timeouts, errors, circuit opens), checks that threw (must be 0), and how long after the fault ended the first
 * check was decided by Redis again. Each fault gets a fresh private {@code redis-server} (and a replica and a
 * forwarding "address" for the failover).
 *
 * <p>Arguments: seconds before and after each fault (default 3), threads (default 4), store timeout in ms
 * (default 50, the product default). Prints a markdown table.
 */
public final class RedisFaultBench {

    private static final int KEYS = 1000;

    private RedisFaultBench() {
    }

    /** One fault: what the store connects to, how the fault starts, how long it lasts, how it ends. */
    private interface Fault {
        String name();

        String uri();

        void inject() throws Exception;

        /** Holds the fault, then clears it. */
        void holdAndClear() throws Exception;

        void close() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Duration timeout = Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2]) : 50);
        System.out.println("| fault | phase | s | checks/s | p50 us | p99 us | max ms | fallbacks | timeouts"
                + " | errors | circuit opens | thrown | decided by Redis again after |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<java.util.function.Supplier<Fault>> faults = List.of(RedisFaultBench::none,
                RedisFaultBench::shortStalls, () -> stall("DEBUG SLEEP 1 (one 1 s stall)", "DEBUG", "SLEEP", "1"),
                () -> stall("CLIENT PAUSE 1000", "CLIENT", "PAUSE", "1000"), RedisFaultBench::outOfMemory,
                RedisFaultBench::frozen, RedisFaultBench::killedAndRestarted, RedisFaultBench::failover);
        for (var make : faults) {
            Fault fault = make.get();
            Thread cleanup = new Thread(() -> { // an interrupted run must not leave redis-servers behind
                try {
                    fault.close();
                } catch (Exception ignored) {
                    // best effort at exit
                }
            });
            Runtime.getRuntime().addShutdownHook(cleanup);
            try {
                run(fault, seconds, threads, timeout);
            } finally {
                fault.close();
                Runtime.getRuntime().removeShutdownHook(cleanup);
            }
        }
    }

    private static void run(Fault fault, double seconds, int threads, Duration timeout) throws Exception {
        RedisSettings settings = RedisSettings.of(fault.uri()).withTimeout(timeout).withPoolSize(16);
        try (RedisStore store = RedisStore.connect(settings)) {
            // a limit no check reaches: every check is a full admission with a write
            KeyedLimiter limiter = store.limiter("faults", "fixed-window",
                    LimitConfig.of(2_000_000, LimitConfig.MAX_WINDOW_MILLIS), KEYS);
            // index 3: the warm-up, recorded apart so it never counts in the reference phase
            Phase[] phases = {new Phase("before"), new Phase("during"), new Phase("after"), new Phase("warm-up")};
            AtomicLong current = new AtomicLong(3);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                Thread w = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    int i = seed * 7919;
                    while (running.get()) {
                        Phase phase = phases[(int) current.get()];
                        String key = "key-" + (i = (i + 503) % KEYS);
                        long start = System.nanoTime();
                        try {
                            limiter.tryAcquire(key, out);
                        } catch (RuntimeException e) {
                            phase.thrown.increment();
                        }
                        long nanos = System.nanoTime() - start;
                        phase.latency.record(nanos / 1000);
                        phase.max.accumulateAndGet(nanos, Math::max);
                        phase.checks.increment();
                    }
                });
                workers.add(w);
            }
            workers.forEach(Thread::start);
            // warm-up (scripts loaded, JIT): a cold client's first checks can exceed a 50 ms timeout on a busy
            // machine, which would open the circuit before the fault; the reference phase starts once Redis
            // has been deciding for a second
            Thread.sleep(2000);
            long warm = System.nanoTime() + 30_000_000_000L;
            long trips = -1;
            while (System.nanoTime() < warm) {
                if (store.state() == StoreState.UP && trips >= 0 && store.stats().getRoundTrips() > trips + 1000) {
                    break;
                }
                trips = store.state() == StoreState.UP ? store.stats().getRoundTrips() : -1;
                Thread.sleep(1000);
            }
            phases[0].begin(store);
            current.set(0);
            Thread.sleep((long) (seconds * 1000));
            phases[0].end(store);
            phases[1].begin(store);
            current.set(1);
            fault.inject();
            fault.holdAndClear();
            phases[1].end(store);
            phases[2].begin(store);
            current.set(2);
            long clearedAt = System.nanoTime();
            long tripsAtClear = store.stats().getRoundTrips();
            long recoveredAt = -1;
            long deadline = clearedAt + (long) (seconds * 1e9);
            while (System.nanoTime() < deadline) {
                if (recoveredAt < 0 && store.state() == StoreState.UP && store.stats().getRoundTrips() > tripsAtClear) {
                    recoveredAt = System.nanoTime();
                }
                Thread.sleep(1);
            }
            phases[2].end(store);
            running.set(false);
            for (Thread w : workers) {
                w.join();
            }
            String recovery = recoveredAt < 0 ? "not within " + seconds + " s"
                    : String.format(Locale.ROOT, "%d ms", (recoveredAt - clearedAt) / 1_000_000);
            for (Phase p : List.of(phases[0], phases[1], phases[2])) {
                System.out.println(p.row(fault.name(), p.name.equals("after") ? recovery : ""));
            }
        }
    }

    private static final class Phase {
        final String name;
        final LatencyHistogram latency = new LatencyHistogram();
        final LongAdder checks = new LongAdder();
        final LongAdder thrown = new LongAdder();
        final AtomicLong max = new AtomicLong();
        long startNanos;
        long endNanos;
        long[] startStats;
        long[] endStats;

        Phase(String name) {
            this.name = name;
        }

        void begin(RedisStore store) {
            startNanos = System.nanoTime();
            startStats = stats(store);
        }

        void end(RedisStore store) {
            endNanos = System.nanoTime();
            endStats = stats(store);
        }

        private static long[] stats(RedisStore store) {
            RedisStoreStats s = store.stats();
            return new long[] {s.getFallbacks(), s.getTimeouts(), s.getErrors(), s.getCircuitOpens()};
        }

        String row(String fault, String recovery) {
            double secs = (endNanos - startNanos) / 1e9;
            return String.format(Locale.ROOT, "| %s | %s | %.1f | %,.0f | %d | %d | %.1f | %,d | %d | %d | %d | %d | %s |",
                    fault, name, secs, checks.sum() / secs, latency.percentile(0.5), latency.percentile(0.99),
                    max.get() / 1e6, endStats[0] - startStats[0], endStats[1] - startStats[1],
                    endStats[2] - startStats[2], endStats[3] - startStats[3], thrown.sum(), recovery);
        }
    }

    private static void send(RedisServer server, String... command) {
        try (Jedis j = new Jedis("127.0.0.1", server.port(), 30_000)) {
            byte[] name = command[0].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            j.sendCommand(() -> name, java.util.Arrays.copyOfRange(command, 1, command.length));
        }
    }

    private abstract static class OneServer implements Fault {
        final RedisServer server;
        final String name;

        OneServer(String name, String... args) {
            this.name = name;
            this.server = RedisServer.start(args);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String uri() {
            return server.uri();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    private static Fault none() {
        return new OneServer("none (reference)") {
            @Override
            public void inject() {
            }

            @Override
            public void holdAndClear() throws InterruptedException {
                Thread.sleep(2000);
            }
        };
    }

    /** A slow server: a 30 ms stall every 100 ms for 2 s, each below the 50 ms default timeout. */
    private static Fault shortStalls() {
        return new OneServer("30 ms stalls every 100 ms, 2 s (DEBUG SLEEP 0.03)", "--enable-debug-command", "yes") {
            @Override
            public void inject() {
            }

            @Override
            public void holdAndClear() throws InterruptedException {
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    send(server, "DEBUG", "SLEEP", "0.03");
                    long left = 100 - (System.nanoTime() - start) / 1_000_000;
                    if (left > 0) {
                        Thread.sleep(left);
                    }
                }
            }
        };
    }

    private static Fault stall(String name, String... command) {
        return new OneServer(name, "--enable-debug-command", "yes") {
            @Override
            public void inject() {
            }

            @Override
            public void holdAndClear() throws InterruptedException {
                long start = System.nanoTime();
                send(server, command); // DEBUG SLEEP returns when the stall ends; CLIENT PAUSE at once
                long left = 1000 - (System.nanoTime() - start) / 1_000_000;
                if (left > 0) {
                    Thread.sleep(left);
                }
            }
        };
    }

    private static Fault outOfMemory() {
        return new OneServer("maxmemory full, noeviction, 2 s") {
            @Override
            public void inject() {
                server.fillMemory();
            }

            @Override
            public void holdAndClear() throws InterruptedException {
                Thread.sleep(2000);
                server.unlimitMemory();
            }
        };
    }

    private static Fault frozen() {
        return new OneServer("SIGSTOP 2 s, SIGCONT") {
            @Override
            public void inject() throws Exception {
                server.freeze();
            }

            @Override
            public void holdAndClear() throws Exception {
                Thread.sleep(2000);
                server.thaw();
            }
        };
    }

    private static Fault killedAndRestarted() {
        return new OneServer("killed (SIGKILL), restarted on the same port after 2 s") {
            @Override
            public void inject() throws Exception {
                server.kill();
            }

            @Override
            public void holdAndClear() throws Exception {
                Thread.sleep(2000);
                server.restart();
            }
        };
    }

    /** Primary and replica behind one forwarding address; the replica promoted, the primary killed. */
    private static Fault failover() {
        RedisServer primary = RedisServer.start();
        RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", String.valueOf(primary.port()));
        replica.awaitReplicating();
        TcpProxy address;
        try {
            address = new TcpProxy(primary.port());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Fault() {
            @Override
            public String name() {
                return "failover: replica promoted, primary killed, address moved (all phases via a TCP forwarder)";
            }

            @Override
            public String uri() {
                return address.uri();
            }

            @Override
            public void inject() throws Exception {
                replica.promote();
                primary.kill();
                address.switchTo(replica.port());
            }

            @Override
            public void holdAndClear() {
            }

            @Override
            public void close() throws Exception {
                address.close();
                replica.close();
                primary.close();
            }
        };
    }
}
