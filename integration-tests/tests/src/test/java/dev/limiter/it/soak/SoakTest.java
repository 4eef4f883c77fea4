package dev.limiter.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.jmx.AttachedServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The soak: a forked Tomcat 11 with the agent under sustained load from keep-alive clients on three rules while
 * the rules file is rewritten every 2 s (two versions alternating: same ids, strategies, windows and
 * {@code max-keys}, other limits, so each reload is live and keeps the rules' state and counters), Prometheus
 * scrapes it every second and a JMX client polls the rule MBeans every second. It proves that the agent loses
 * nothing and leaks nothing:
 *
 * <ul>
 *   <li>every request is answered 200 or 429: no other status, no I/O error, no timeout;</li>
 *   <li>per rule, the agent's {@code Allowed}/{@code Rejected} (JMX) equal the 200s/429s the clients saw on that
 *       rule's path (each path is matched by exactly one rule), the final scrape's counters equal JMX's, and the
 *       application's own filter ran exactly once per 200 (never for a 429);</li>
 *   <li>every rewrite was reloaded (none failed, none coalesced) and the new limits showed on the MBeans; the
 *       counters never went down, in a scrape or a poll; {@code InternalErrors} and each rule's {@code Errors}
 *       stay 0; the concurrency rule has all its permits back when the load stops;</li>
 *   <li>resource use is flat after warm-up: every 5 s, after a {@code gc()} over JMX, the heap used after that
 *       GC, Metaspace used, live threads and open file descriptors are sampled, and the least-squares slope of
 *       the samples after the first third of the run stays within {@link Trend}'s bound.</li>
 * </ul>
 *
 * <p>{@code -Dlimiter.soak.seconds} sets the length of the load (default {@value #DEFAULT_SECONDS}: what the
 * build runs); {@code scripts/soak MINUTES} runs it for longer. The test prints a markdown report and writes it
 * to {@code -Dlimiter.soak.report=PATH} when set. {@link Isolated}: the load saturates the 2 cores, which would
 * eat the time-outs of the classes running beside it and blur its own figures.
 */
@Isolated("a minute of load that saturates the machine's 2 cores")
class SoakTest {

    static final int DEFAULT_SECONDS = 60;
    private static final int SECONDS = Integer.getInteger("limiter.soak.seconds", DEFAULT_SECONDS);
    private static final String REPORT = System.getProperty("limiter.soak.report", "");

    private static final long RELOAD_EVERY_MILLIS = 2_000;
    private static final long SCRAPE_EVERY_MILLIS = 1_000;
    private static final long POLL_EVERY_MILLIS = 1_000;
    private static final long SAMPLE_EVERY_MILLIS = 5_000;
    /** How long a rewrite may take to show as a reload before the soak counts it as missed. */
    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);

    private static final int MAX_KEYS = 1_000;
    /** Each client key is used this many times in a row (across the keyed clients), then never again. */
    private static final int REQUESTS_PER_KEY = 3;
    private static final int TENANTS = 4;
    private static final int SLOW_MILLIS = 20;
    /**
     * A client pauses this long after a 429, as a client honouring {@code Retry-After} would (shorter, to keep the
     * load up): without it the clients of a rule spin on its cheap rejections and the run tests little else.
     */
    private static final long BACK_OFF_MILLIS = 5;

    /**
     * The two versions of the rules file. Only limits change: the ids, strategies, windows and {@code max-keys}
     * stay, so every reload keeps each rule's keys and counters (docs/rules.md, "What a reload keeps") and the
     * agent's counts must add up across all of them.
     */
    record Version(String name, int keyedLimit, int concurrencyLimit, int multiPerSecond, int multiPerMinute) {

        String yaml() {
            return """
                    version: 1
                    rules:
                      - id: soak-keyed
                        match: { http: { path: /api/items/soak-keyed } }
                        key: header:X-Client
                        strategy: token-bucket
                        limit: %d
                        window: 1s
                        max-keys: %d
                      - id: soak-concurrency
                        match: { http: { path: /slow } }
                        strategy: concurrency
                        limit: %d
                      - id: soak-multi
                        match: { http: { path: /api/items/soak-multi } }
                        key: header:X-Tenant
                        strategy: sliding-window
                        limits:
                          - { limit: %d, window: 1s }
                          - { limit: %d, window: 1m }
                    """.formatted(keyedLimit, MAX_KEYS, concurrencyLimit, multiPerSecond, multiPerMinute);
        }

        long limitOf(Load load) {
            return switch (load) {
                case KEYED -> keyedLimit;
                case CONCURRENCY -> concurrencyLimit;
                case MULTI -> multiPerSecond; // JMX Limit: the first (shortest window) of several
            };
        }
    }

    static final Version A = new Version("A", 2, 3, 40, 1200);
    static final Version B = new Version("B", 3, 5, 60, 1500);

    /** The three rules, the path only that rule matches, and how many client threads load it. */
    enum Load {
        /** Churning keys: {@code 3} requests per key, then a new key, far more keys than {@code max-keys}. */
        KEYED("soak-keyed", "/api/items/soak-keyed", 3),
        /** A slow endpoint ({@value #SLOW_MILLIS} ms) under a concurrency limit below the number of clients. */
        CONCURRENCY("soak-concurrency", "/slow?ms=" + SLOW_MILLIS, 6),
        /** Two limits (per second, per minute) on a few tenants. */
        MULTI("soak-multi", "/api/items/soak-multi", 2);

        final String rule;
        final String target;
        final int clients;

        Load(String rule, String target, int clients) {
            this.rule = rule;
            this.target = target;
            this.clients = clients;
        }

        ObjectName mbean() {
            return AttachedServer.rule(rule);
        }
    }

    /** What the clients of one rule saw. */
    static final class Tally {
        final LongAdder ok = new LongAdder();
        final LongAdder tooMany = new LongAdder();
        final LongAdder ioErrors = new LongAdder();
        final LongAdder connections = new LongAdder();
        final Map<Integer, LongAdder> other = new ConcurrentHashMap<>();
        final Queue<String> firstErrors = new ConcurrentLinkedQueue<>();

        void count(int status) {
            if (status == 200) {
                ok.increment();
            } else if (status == 429) {
                tooMany.increment();
            } else {
                other.computeIfAbsent(status, s -> new LongAdder()).increment();
            }
        }

        void ioError(Exception e) {
            ioErrors.increment();
            if (firstErrors.size() < 5) {
                firstErrors.add(e.toString());
            }
        }

        long requests() {
            long others = other.values().stream().mapToLong(LongAdder::sum).sum();
            return ok.sum() + tooMany.sum() + others + ioErrors.sum();
        }
    }

    private static final ObjectName LIMITER = AttachedServer.name("dev.limiter:type=Limiter");
    private static final ObjectName MEMORY = AttachedServer.name("java.lang:type=Memory");
    private static final ObjectName THREADING = AttachedServer.name("java.lang:type=Threading");
    private static final ObjectName OS = AttachedServer.name("java.lang:type=OperatingSystem");
    private static final ObjectName CLASSES = AttachedServer.name("java.lang:type=ClassLoading");
    private static final ObjectName RUNTIME = AttachedServer.name("java.lang:type=Runtime");
    private static final ObjectName METASPACE = AttachedServer.name("java.lang:type=MemoryPool,name=Metaspace");
    private static final Pattern ANNOUNCED = Pattern.compile(
            "limiter: Prometheus metrics on (http://127\\.0\\.0\\.1:(\\d+)/metrics)");
    private static final String[] RULE_ATTRIBUTES = {"Allowed", "Rejected", "WouldReject", "Errors", "ActiveKeys",
        "KeysRefused", "Limit"};

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private AttachedServer attached;
    private MBeanServerConnection mbeans;
    private final Map<Load, Tally> tallies = new ConcurrentHashMap<>();
    /** What went wrong while the load ran (the first {@value #PROBLEMS_KEPT}), and how often. */
    private final Queue<String> problems = new ConcurrentLinkedQueue<>();
    private static final int PROBLEMS_KEPT = 50;
    private final AtomicInteger problemCount = new AtomicInteger();
    private volatile boolean running = true;

    private final AtomicLong keySequence = new AtomicLong();
    private final AtomicInteger rewrites = new AtomicInteger();
    private final AtomicLong maxReloadMillis = new AtomicLong();
    private final AtomicLong totalReloadMillis = new AtomicLong();
    private final AtomicInteger reloadsSeen = new AtomicInteger();
    private final AtomicInteger scrapes = new AtomicInteger();
    private final AtomicInteger polls = new AtomicInteger();
    private final AtomicInteger maxActiveKeys = new AtomicInteger();
    /** The last value of each counter seen by the scraper and by the poller, to prove none ever goes down. */
    private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();

    @AfterEach
    void stop() {
        running = false;
        if (attached != null) {
            attached.close();
        }
    }

    @Test
    void theAgentLosesNothingAndLeaksNothingUnderLoadWithLiveReloads() throws Exception {
        attached = AttachedServer.start(servers, TestApp.TOMCAT11_JAKARTA, "SoakTest", A.yaml(), List.of(),
                List.of("prometheus=127.0.0.1:0"), Load.KEYED.mbean(), Load.CONCURRENCY.mbean(), Load.MULTI.mbean());
        mbeans = attached.mbeans;
        Matcher announced = ANNOUNCED.matcher(attached.server.awaitOutput(ANNOUNCED.pattern(), Duration.ofSeconds(60)));
        assertThat(announced.find()).isTrue();
        URI metrics = URI.create(announced.group(1));
        HttpClient scraper = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String serverJvm = mbeans.getAttribute(RUNTIME, "VmVendor") + " " + mbeans.getAttribute(RUNTIME, "VmName")
                + " " + mbeans.getAttribute(RUNTIME, "VmVersion");

        List<Thread> clients = new ArrayList<>();
        for (Load load : Load.values()) {
            Tally tally = new Tally();
            tallies.put(load, tally);
            for (int i = 0; i < load.clients; i++) {
                Thread client = new Thread(() -> drive(load, tally), "soak-" + load.rule + "-" + i);
                client.setDaemon(true);
                clients.add(client);
            }
        }
        ScheduledExecutorService background = Executors.newScheduledThreadPool(3, runnable -> {
            Thread thread = new Thread(runnable, "soak-background");
            thread.setDaemon(true);
            return thread;
        });

        long start = System.nanoTime();
        clients.forEach(Thread::start);
        background.scheduleAtFixedRate(guarded("reload", this::rewriteAndAwaitReload), RELOAD_EVERY_MILLIS,
                RELOAD_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        background.scheduleAtFixedRate(guarded("scrape", () -> scrape(scraper, metrics)), SCRAPE_EVERY_MILLIS,
                SCRAPE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        background.scheduleAtFixedRate(guarded("poll", this::poll), POLL_EVERY_MILLIS, POLL_EVERY_MILLIS,
                TimeUnit.MILLISECONDS);

        // the samples, on this thread, while the load runs: the last one at the end of the run
        List<Sample> samples = new ArrayList<>();
        for (long k = 0; k * SAMPLE_EVERY_MILLIS <= SECONDS * 1000L; k++) {
            sleepUntil(start + TimeUnit.MILLISECONDS.toNanos(k * SAMPLE_EVERY_MILLIS));
            samples.add(sample(start));
        }
        double loadSeconds = (System.nanoTime() - start) / 1e9;

        running = false;
        for (Thread client : clients) {
            client.join(TimeUnit.SECONDS.toMillis(90));
            assertThat(client.isAlive()).as(client.getName() + " still running 90 s after the end").isFalse();
        }
        background.shutdown();
        assertThat(background.awaitTermination(60, TimeUnit.SECONDS)).as("reloader, scraper, poller stop").isTrue();

        // quiet now: every request the clients sent has been answered and counted
        Map<Load, long[]> jmx = new TreeMap<>();
        for (Load load : Load.values()) {
            jmx.put(load, new long[] {attr(load.mbean(), "Allowed"), attr(load.mbean(), "Rejected"),
                attr(load.mbean(), "WouldReject"), attr(load.mbean(), "Errors"), attr(load.mbean(), "KeysRefused"),
                attr(load.mbean(), "ActiveKeys"), attr(load.mbean(), "Limit")});
        }
        Map<String, Double> scraped = parse(get(scraper, metrics));
        long filterRuns = attached.http.number("/app/filter-count");
        long inFlightFree = (Long) mbeans.invoke(Load.CONCURRENCY.mbean(), "remaining", new Object[] {""},
                new String[] {String.class.getName()});
        long reloadCount = attr(LIMITER, "ReloadCount");
        long failedReloads = attr(LIMITER, "FailedReloadCount");
        long internalErrors = attr(LIMITER, "InternalErrors");

        List<Trend> trends = Trend.of(samples, SECONDS / 3.0);
        String report = report(serverJvm, loadSeconds, jmx, scraped, reloadCount, samples, trends);
        System.out.println(report);
        if (!REPORT.isBlank()) {
            Path path = Path.of(REPORT);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            Files.writeString(path, report, StandardCharsets.UTF_8);
        }

        assertThat(problems).as(problemCount.get() + " problems seen while the load ran").isEmpty();
        long admitted = 0;
        for (Load load : Load.values()) {
            Tally tally = tallies.get(load);
            long[] counted = jmx.get(load);
            assertThat(tally.ioErrors.sum()).as(load.rule + ": requests lost to I/O errors " + tally.firstErrors)
                    .isZero();
            assertThat(tally.other).as(load.rule + ": answers other than 200 and 429").isEmpty();
            assertThat(tally.ok.sum()).as(load.rule + ": 200s").isPositive();
            assertThat(tally.tooMany.sum()).as(load.rule + ": 429s").isPositive();
            assertThat(counted[0]).as(load.rule + ": JMX Allowed = the 200s the clients saw")
                    .isEqualTo(tally.ok.sum());
            assertThat(counted[1]).as(load.rule + ": JMX Rejected = the 429s the clients saw")
                    .isEqualTo(tally.tooMany.sum());
            assertThat(counted[2]).as(load.rule + ": WouldReject").isZero();
            assertThat(counted[3]).as(load.rule + ": Errors").isZero();
            assertThat(scraped).as(load.rule + ": the scrape's counters = JMX's")
                    .containsEntry(decisions(load.rule, "allowed"), (double) counted[0])
                    .containsEntry(decisions(load.rule, "rejected"), (double) counted[1])
                    .containsEntry(decisions(load.rule, "error"), 0.0)
                    .containsEntry(series("limiter_keys_refused_total", "rule", load.rule), (double) counted[4]);
            admitted += counted[0];
        }
        assertThat(filterRuns).as("the application's filter ran once per admitted request, never for a 429")
                .isEqualTo(admitted);
        assertThat(inFlightFree).as("the concurrency rule has every permit back")
                .isEqualTo(jmx.get(Load.CONCURRENCY)[6]);
        assertThat(internalErrors).as("InternalErrors").isZero();
        assertThat(scraped).containsEntry("limiter_internal_errors_total", 0.0)
                .containsEntry(series("limiter_reloads_total", "result", "ok"), (double) reloadCount);
        assertThat(failedReloads).as("FailedReloadCount").isZero();
        assertThat(reloadCount).as("every rewrite reloaded once").isEqualTo(rewrites.get());
        assertThat(rewrites.get()).as("rewrites: one per 2 s, later when reloads are slow").isGreaterThanOrEqualTo(
                SECONDS / 4);
        assertThat(scrapes.get()).as("scrapes: one per second").isGreaterThanOrEqualTo(SECONDS / 2);
        assertThat(polls.get()).as("JMX polls: one per second").isGreaterThanOrEqualTo(SECONDS / 2);
        assertThat(maxActiveKeys.get()).as("ActiveKeys never above max-keys").isLessThanOrEqualTo(MAX_KEYS);
        assertThat(keySequence.get() / REQUESTS_PER_KEY).as("distinct client keys").isGreaterThan(3L * MAX_KEYS);
        for (Trend trend : trends) {
            if (trend.asserted()) {
                assertThat(trend.slopePerMinute()).as(trend.describe()).isLessThanOrEqualTo(trend.boundPerMinute());
            }
        }
    }

    /** One client thread: GETs on its rule's path over a keep-alive connection until the run ends. */
    private void drive(Load load, Tally tally) {
        KeepAliveConnection connection = new KeepAliveConnection(attached.server.port());
        int tenant = (int) Thread.currentThread().getId();
        try {
            while (running) {
                String[] headers = switch (load) {
                    case KEYED -> new String[] {"X-Client: k" + keySequence.getAndIncrement() / REQUESTS_PER_KEY};
                    case MULTI -> new String[] {"X-Tenant: t" + Math.floorMod(tenant++, TENANTS)};
                    case CONCURRENCY -> new String[0];
                };
                try {
                    int status = connection.get(load.target, headers);
                    tally.count(status);
                    if (status == 429) {
                        pause(BACK_OFF_MILLIS);
                    }
                } catch (IOException e) {
                    tally.ioError(e);
                    pause(100);
                }
            }
        } finally {
            connection.close();
            tally.connections.add(connection.opened());
        }
    }

    /** Writes the other version of the rules and waits until the agent runs it; checks its limits over JMX. */
    private void rewriteAndAwaitReload() throws Exception {
        long before = attr(LIMITER, "ReloadCount");
        int n = rewrites.incrementAndGet();
        Version version = n % 2 == 1 ? B : A;
        long written = System.nanoTime();
        attached.rules.write(version.yaml());
        long deadline = written + RELOAD_TIMEOUT.toNanos();
        long now;
        while ((now = System.nanoTime()) - deadline < 0 && attr(LIMITER, "ReloadCount") == before) {
            pause(20);
        }
        long after = attr(LIMITER, "ReloadCount");
        if (after != before + 1) {
            problem("rewrite " + n + " (version " + version.name() + "): ReloadCount " + before + " -> " + after
                    + " after " + (now - written) / 1_000_000 + " ms; FailedReloadCount "
                    + attr(LIMITER, "FailedReloadCount") + ", LastReloadError " + mbeans.getAttribute(LIMITER,
                            "LastReloadError"));
            return;
        }
        maxReloadMillis.accumulateAndGet((now - written) / 1_000_000, Math::max);
        totalReloadMillis.addAndGet((now - written) / 1_000_000);
        reloadsSeen.incrementAndGet();
        for (Load load : Load.values()) {
            long limit = attr(load.mbean(), "Limit");
            if (limit != version.limitOf(load)) {
                problem("rewrite " + n + " (version " + version.name() + ") reloaded, but " + load.rule
                        + " shows Limit " + limit + ", not " + version.limitOf(load));
            }
        }
    }

    /** One Prometheus scrape: every rule's decision counters present and never lower than the last scrape's. */
    private void scrape(HttpClient client, URI metrics) throws Exception {
        Map<String, Double> scraped = parse(get(client, metrics));
        for (Load load : Load.values()) {
            for (String outcome : new String[] {"allowed", "rejected"}) {
                Double value = scraped.get(decisions(load.rule, outcome));
                if (value == null) {
                    problem("a scrape without " + decisions(load.rule, outcome));
                } else {
                    monotonic("scrape " + load.rule + " " + outcome, value.longValue());
                }
            }
        }
        Double internal = scraped.get("limiter_internal_errors_total");
        if (internal == null || internal != 0.0) {
            problem("a scrape showed limiter_internal_errors_total " + internal);
        }
        scrapes.incrementAndGet();
    }

    /** One JMX poll of the rule MBeans: counters never lower than the last poll's, keys within max-keys. */
    private void poll() throws Exception {
        for (Load load : Load.values()) {
            AttributeList values = mbeans.getAttributes(load.mbean(), RULE_ATTRIBUTES);
            if (values.size() != RULE_ATTRIBUTES.length) {
                problem("a poll of " + load.rule + " returned " + values.size() + " attributes");
                continue;
            }
            for (Attribute attribute : values.asList()) {
                long value = ((Number) attribute.getValue()).longValue();
                switch (attribute.getName()) {
                    case "Allowed", "Rejected", "KeysRefused" ->
                            monotonic("poll " + load.rule + " " + attribute.getName(), value);
                    case "ActiveKeys" -> maxActiveKeys.accumulateAndGet((int) value, Math::max);
                    case "Errors", "WouldReject" -> {
                        if (value != 0) {
                            problem("a poll showed " + load.rule + " " + attribute.getName() + " " + value);
                        }
                    }
                    default -> {
                        // Limit: checked after each reload
                    }
                }
            }
        }
        polls.incrementAndGet();
    }

    private void problem(String text) {
        if (problemCount.incrementAndGet() <= PROBLEMS_KEPT) {
            problems.add(text);
        }
    }

    private void monotonic(String counter, long value) {
        Long previous = lastSeen.put(counter, value);
        if (previous != null && value < previous) {
            problem(counter + " went down: " + previous + " -> " + value);
        }
    }

    /** A task for the background scheduler that records its failure instead of silently ending its schedule. */
    private Runnable guarded(String what, ThrowingTask task) {
        return () -> {
            if (!running) {
                return;
            }
            try {
                task.run();
            } catch (Exception | AssertionError e) {
                if (running) {
                    problem(what + " failed: " + e);
                }
            }
        };
    }

    @FunctionalInterface
    interface ThrowingTask {
        void run() throws Exception;
    }

    /** One resource sample of the server, right after a full GC asked for over JMX. */
    record Sample(double seconds, long heapAfterGc, long metaspace, long threads, long fds, long classes) {
    }

    private Sample sample(long start) throws Exception {
        mbeans.invoke(MEMORY, "gc", null, null);
        mbeans.invoke(MEMORY, "gc", null, null); // a second pass settles what the first one freed late
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Sample(seconds, oldGenAfterGc(), used((CompositeData) mbeans.getAttribute(METASPACE, "Usage")),
                attr(THREADING, "ThreadCount"), attr(OS, "OpenFileDescriptorCount"),
                attr(CLASSES, "LoadedClassCount"));
    }

    /**
     * The heap after the last full GC: the old generation's {@code CollectionUsage}. The server runs the Serial
     * GC (every forked test server does), whose full GC compacts every live object into the old generation and
     * which is the only collector of that pool, so the value is what the {@code gc()} left, untouched by the young
     * collections the load causes right after it (the heap's plain {@code used} would count their garbage).
     */
    private long oldGenAfterGc() throws Exception {
        for (ObjectName pool : mbeans.queryNames(AttachedServer.name("java.lang:type=MemoryPool,*"), null)) {
            String name = pool.getKeyProperty("name");
            if (name.contains("Tenured") || name.contains("Old Gen")) {
                return used((CompositeData) mbeans.getAttribute(pool, "CollectionUsage"));
            }
        }
        throw new AssertionError("no old-generation memory pool in "
                + mbeans.queryNames(AttachedServer.name("java.lang:type=MemoryPool,*"), null));
    }

    private static long used(CompositeData usage) {
        return (Long) usage.get("used");
    }

    private long attr(ObjectName name, String attribute) throws Exception {
        return ((Number) mbeans.getAttribute(name, attribute)).longValue();
    }

    private static String get(HttpClient client, URI metrics) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + metrics + ": " + response.statusCode());
        }
        return response.body();
    }

    /** The samples of a text exposition, by series with its labels sorted by name ({@link #series}). */
    static Map<String, Double> parse(String exposition) {
        Map<String, Double> samples = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String series = line.substring(0, space);
            int brace = series.indexOf('{');
            if (brace < 0) {
                samples.put(series, Double.parseDouble(line.substring(space + 1)));
                continue;
            }
            List<String> labels = new ArrayList<>();
            Matcher label = LABEL.matcher(series.substring(brace + 1, series.length() - 1));
            while (label.find()) {
                labels.add(label.group());
            }
            Collections.sort(labels);
            samples.put(series.substring(0, brace) + "{" + String.join(",", labels) + "}",
                    Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }

    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\"");

    /** A series as {@link #parse} keys it: labels sorted by name. */
    static String series(String name, String... labelsAndValues) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i + 1 < labelsAndValues.length; i += 2) {
            labels.add(labelsAndValues[i] + "=\"" + labelsAndValues[i + 1] + "\"");
        }
        Collections.sort(labels);
        return name + "{" + String.join(",", labels) + "}";
    }

    static String decisions(String rule, String outcome) {
        return series("limiter_decisions_total", "rule", rule, "outcome", outcome);
    }

    private String report(String serverJvm, double loadSeconds, Map<Load, long[]> jmx, Map<String, Double> scraped,
            long reloadCount, List<Sample> samples, List<Trend> trends) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "# Soak: %d s of load with live reloads%n%n", SECONDS));
        md.append("- server: Tomcat 11 (`TestApp.TOMCAT11_JAKARTA`, `-Xmx256m -XX:+UseSerialGC "
                + "-XX:TieredStopAtLevel=1`) with the agent and `prometheus=127.0.0.1:0`, on ").append(serverJvm)
                .append('\n');
        md.append(String.format(Locale.ROOT, "- load: %.1f s; %d keep-alive client threads (%d keyed, %d on the "
                + "concurrency rule's %d ms endpoint, %d on the rule with two limits), machine load average %s%n",
                loadSeconds, Load.KEYED.clients + Load.CONCURRENCY.clients + Load.MULTI.clients, Load.KEYED.clients,
                Load.CONCURRENCY.clients, SLOW_MILLIS, Load.MULTI.clients, loadAverage()));
        long total = 0;
        for (Load load : Load.values()) {
            total += tallies.get(load).requests();
        }
        md.append(String.format(Locale.ROOT, "- requests: %,d (%,.0f/s); distinct keys on `soak-keyed`: %,d "
                + "(`max-keys: %d`; most `ActiveKeys` seen: %d)%n", total, total / loadSeconds,
                (keySequence.get() + REQUESTS_PER_KEY - 1) / REQUESTS_PER_KEY, MAX_KEYS, maxActiveKeys.get()));
        md.append(String.format(Locale.ROOT, "- rewrites of the rules file: %d, reloads (`ReloadCount`): %d "
                + "(each in force %d ms after its write on average, %d ms at the slowest); Prometheus scrapes: %d; JMX "
                + "polls: %d; problems: %d%n%n", rewrites.get(), reloadCount,
                totalReloadMillis.get() / Math.max(1, reloadsSeen.get()), maxReloadMillis.get(), scrapes.get(),
                polls.get(), problemCount.get()));
        md.append("| rule | requests | 200 | 429 | other | I/O errors | JMX allowed | JMX rejected | "
                + "Prometheus allowed | Prometheus rejected | KeysRefused |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Load load : Load.values()) {
            Tally tally = tallies.get(load);
            long[] counted = jmx.get(load);
            md.append(String.format(Locale.ROOT, "| `%s` | %,d | %,d | %,d | %s | %,d | %,d | %,d | %s | %s | %,d |%n",
                    load.rule, tally.requests(), tally.ok.sum(), tally.tooMany.sum(),
                    tally.other.isEmpty() ? "0" : tally.other.toString(), tally.ioErrors.sum(), counted[0], counted[1],
                    number(scraped.get(decisions(load.rule, "allowed"))),
                    number(scraped.get(decisions(load.rule, "rejected"))), counted[4]));
        }
        md.append(String.format(Locale.ROOT, "%nResources of the server, sampled every %d s after a `gc()` over JMX "
                + "(%d samples); the slope is the least-squares fit over the samples after the first third of the "
                + "run (from %.0f s), the bound is the leak rate allowed plus what the samples' noise can tilt that "
                + "fit by (`Trend`):%n%n", SAMPLE_EVERY_MILLIS / 1000, samples.size(), SECONDS / 3.0));
        md.append("| resource | first sample | at warm-up's end | last sample | slope after warm-up | bound | |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|\n");
        for (Trend trend : trends) {
            md.append(trend.row()).append('\n');
        }
        md.append("\nThe samples (seconds since the load began; heap and Metaspace in KiB):\n\n");
        md.append("| s | heap after GC | Metaspace | threads | FDs | classes |\n|---:|---:|---:|---:|---:|---:|\n");
        for (Sample sample : samples) {
            md.append(String.format(Locale.ROOT, "| %.1f | %,d | %,d | %d | %d | %d |%n", sample.seconds(),
                    sample.heapAfterGc() / 1024, sample.metaspace() / 1024, sample.threads(), sample.fds(),
                    sample.classes()));
        }
        if (!problems.isEmpty()) {
            md.append("\nProblems:\n\n");
            problems.stream().limit(20).forEach(problem -> md.append("- ").append(problem).append('\n'));
        }
        return md.toString();
    }

    private static String number(Double value) {
        return value == null ? "missing" : String.format(Locale.ROOT, "%,d", value.longValue());
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
