package dev.limiter.bench;

import benchtarget.Inventory;
import benchtarget.Stock;
import com.google.common.util.concurrent.RateLimiter;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.reload.RuleSetHolder;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One call of an application method the agent limits, against the same method guarded by hand with each peer: the
 * method ({@link Inventory}) is woven by the agent's real {@link LimiterTransformer} from its class file, defined
 * in a loader of its own, and runs with the agent's {@link MethodLimiter} installed in the bridge and the rules
 * on the agent's {@link SystemClock}, as under {@code -javaagent} (this JVM cannot take the agent jar itself: its
 * class path holds the agent's classes unshaded). The peers read the system's clock on every call too. Every call takes the allowed path of one hot key, at {@link SameLimits}' billion a second:
 * <ul>
 *   <li>{@code direct}: the method no rule names, not woven (the floor);</li>
 *   <li>{@code method-rule}: a {@code method:} rule, {@code key: global}, token bucket;</li>
 *   <li>{@code method-rule-arg-key}: the same keyed by the method's {@code String} argument ({@code arg:0}),
 *       one existing key;</li>
 *   <li>{@code limit-annotation}: {@code @Limit} on the method, token bucket;</li>
 *   <li>{@code bucket4j}, {@code resilience4j}, {@code guava}: the unwoven method behind the peer's own check
 *       ({@code tryConsume(1)}, {@code acquirePermission()}, {@code tryAcquire()}), built as their benchmarks
 *       build them.</li>
 * </ul>
 * Read {@code gc.alloc.rate.norm} (B/op) with {@code -prof gc}: the woven calls allocate nothing. At several
 * threads ({@code -t 2}) they share the one woven instance and its limits, as the peers' threads share one
 * limiter.
 */
@State(Scope.Benchmark)
public class MethodCallBenchmark extends BenchmarkDefaults {

    private static final String INVENTORY = "benchtarget.Inventory";
    private static final String RULES = """
            version: 1
            rules:
              - id: reserve
                match: { method: { class: benchtarget.Inventory, method: reserve } }
                strategy: token-bucket
                limit: %1$d
                window: 1s
              - id: reserve-for
                match: { method: { class: benchtarget.Inventory, method: reserveFor } }
                key: arg:0
                strategy: token-bucket
                limit: %1$d
                window: 1s
              - id: probe
                match: { method: { class: benchtarget.Inventory, method: probe } }
                limit: 1
                window: 1d
            """.formatted(SameLimits.ALLOWED_LIMIT);

    @Param({"direct", "method-rule", "method-rule-arg-key", "limit-annotation", "bucket4j", "resilience4j",
            "guava"})
    public String config;

    private TrialRules trial;
    /** The configuration's call: one implementation per fork, so the call site stays monomorphic. */
    private LongSupplier operation;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Stock plain = new Inventory();
        String customer = new String("customer-42".toCharArray()); // one key, not a compile-time constant
        operation = switch (config) {
            case "direct" -> plain::unlimited;
            case "method-rule" -> weave()::reserve;
            case "method-rule-arg-key" -> {
                Stock woven = weave();
                yield () -> woven.reserveFor(customer);
            }
            case "limit-annotation" -> weave()::reserveAnnotated;
            case "bucket4j" -> {
                Bucket bucket = Bucket4jBenchmark.newBucket(
                        Bucket4jBenchmark.bandwidth(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW));
                yield () -> bucket.tryConsume(1) ? plain.unlimited() : -1;
            }
            case "resilience4j" -> {
                AtomicRateLimiter limiter = Resilience4jBenchmark.newLimiter(SameLimits.ALLOWED_LIMIT,
                        SameLimits.ALLOWED_WINDOW);
                yield () -> limiter.acquirePermission() ? plain.unlimited() : -1;
            }
            case "guava" -> {
                RateLimiter limiter = GuavaBenchmark.newLimiter(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW);
                yield () -> limiter.tryAcquire() ? plain.unlimited() : -1;
            }
            default -> throw new IllegalArgumentException(config);
        };
    }

    /** The agent's set-up for method rules, then {@link Inventory} woven and checked to be so. */
    private Stock weave() throws Exception {
        trial = TrialRules.open(RULES, SystemClock.INSTANCE); // the agent's clock, as Startup gives it
        RuleSetHolder holder = trial.holder;
        ThrottledLog log = new ThrottledLog("dev.limiter.bench", 5_000);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        WovenLoader loader = new WovenLoader();
        byte[] original;
        try (InputStream in = MethodCallBenchmark.class.getClassLoader()
                .getResourceAsStream(INVENTORY.replace('.', '/') + ".class")) {
            original = in.readAllBytes();
        }
        byte[] bytes = LimiterTransformer.forRules(holder, log, name -> { })
                .transform(loader, INVENTORY.replace('.', '/'), null, null, original);
        if (bytes == null) {
            throw new IllegalStateException("the agent did not weave " + INVENTORY);
        }
        Stock stock = (Stock) loader.define(bytes).getConstructor().newInstance();
        requireWoven("probe", stock::probe);
        requireWoven("probe-annotated", stock::probeAnnotated);
        return stock;
    }

    private static void requireWoven(String rule, Runnable call) {
        call.run();
        try {
            call.run();
        } catch (RateLimitExceededException expected) {
            return;
        }
        throw new IllegalStateException("rule " + rule + " (limit 1) admitted a second call: not woven");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (trial != null) {
            LimiterBridge.installMethods(null);
            trial.close();
        }
    }

    @Benchmark
    public long call() {
        return operation.getAsLong();
    }

    /** Defines the woven {@link Inventory} as a class of its own; everything else comes from the class path. */
    private static final class WovenLoader extends ClassLoader {

        WovenLoader() {
            super("woven", MethodCallBenchmark.class.getClassLoader());
        }

        Class<?> define(byte[] bytes) {
            return defineClass(INVENTORY, bytes, 0, bytes.length);
        }
    }
}
