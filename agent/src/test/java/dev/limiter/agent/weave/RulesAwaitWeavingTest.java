package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import methodtest.BeforeRulesService;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules are parsed after the transformer is installed (premain does not wait for them): a class a rule names
 * that loads meanwhile waits for them at its load if the file's class globs match it (and is then limited from
 * its first call), or is woven once the rules are in (loaded by the rules thread, or after waiting in vain), and
 * none is missed however class loading and the publication of the rules interleave. Real transformer, real
 * retransformation (Byte Buddy self-attach).
 */
class RulesAwaitWeavingTest {

    private static final String THREADS_PACKAGE = "awaittest";

    @TempDir
    Path dir;

    private final Instrumentation inst = ByteBuddyAgent.install();
    private final Set<String> woven = ConcurrentHashMap.newKeySet();
    private final ThrottledLog log = new ThrottledLog("dev.limiter.test", 0);
    private LimiterTransformer transformer;

    @AfterEach
    void reset() {
        if (transformer != null) {
            transformer.reset(inst);
        }
        LimiterBridge.installMethods(null);
    }

    private RuleSetHolder rules(String yaml) throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, yaml);
        RuleSetHolder holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        return holder;
    }

    private LimiterTransformer installAwaiting() {
        transformer = LimiterTransformer.create(log, woven::add);
        transformer.awaitRules();
        return transformer.installOn(inst, false);
    }

    @Test
    void aNamedClassThatLoadedBeforeTheRulesIsWovenWhenTheyArrive() throws Exception {
        installAwaiting();
        // a method reference, not a lambda: JUnit reflects on this class's methods, and a lambda's synthetic
        // method taking the service would load the class before the transformer is installed
        Function<String, String> service = new BeforeRulesService()::call;
        assertThat(service.apply("a")).isEqualTo("before-rules a");
        assertThat(service.apply("b")).isEqualTo("before-rules b"); // no rules yet: nothing limits it
        assertThat(woven).doesNotContain(BeforeRulesService.class.getName());

        RuleSetHolder holder = rules("""
                version: 1
                rules:
                  - id: before-rules
                    match: { method: { class: methodtest.BeforeRulesService, method: call } }
                    limit: 1
                    window: 1h
                """);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));

        assertThat(transformer.rulesLoadedLate(holder, inst)).isEqualTo(1);

        assertThat(woven).contains(BeforeRulesService.class.getName());
        assertThat(service.apply("c")).isEqualTo("before-rules c");
        assertThatThrownBy(() -> service.apply("d")).isInstanceOf(RateLimitExceededException.class)
                .hasMessageContaining("rule before-rules");
    }

    private static final String EARLY_RULES = """
            version: 1
            rules:
              - id: early
                match: { method: { class: 'earlytest.*', method: apply } }
                limit: 1
                window: 1h
            """;

    private LimiterTransformer installAwaiting(String[] classGlobs, Thread rulesThread, long waitMillis) {
        transformer = LimiterTransformer.create(log, woven::add);
        transformer.awaitRules(classGlobs, rulesThread, waitMillis);
        return transformer.installOn(inst, false);
    }

    /**
     * Loads {@code className} (of the test class path) on a new thread and calls its {@code apply} three times:
     * "OK" or "REJ" per call; the future completes when the calls are done.
     */
    private static CompletableFuture<String> loadAndCallOnItsOwnThread(String className) {
        CompletableFuture<String> calls = new CompletableFuture<>();
        Thread app = new Thread(() -> {
            try {
                calls.complete(callThrice(className));
            } catch (Throwable t) {
                calls.completeExceptionally(t);
            }
        }, "application");
        app.setDaemon(true);
        app.start();
        return calls;
    }

    @SuppressWarnings("unchecked")
    private static String callThrice(String className) throws Exception {
        Function<String, String> service = (Function<String, String>) Class.forName(className)
                .getDeclaredConstructor().newInstance();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            try {
                service.apply("x");
                out.append(i == 0 ? "OK" : " OK");
            } catch (RateLimitExceededException e) {
                out.append(i == 0 ? "REJ" : " REJ");
            }
        }
        return out.toString();
    }

    /** The rules published as the rules thread does: the method limiter in the bridge, then the transformer told. */
    private int publish(RuleSetHolder holder) {
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        return transformer.rulesLoadedLate(holder, inst);
    }

    @Test
    void aClassTheFileMayNameWaitsForTheRulesAtItsLoadAndIsLimitedFromItsFirstCall() throws Exception {
        installAwaiting(new String[] {"earlytest.*"}, null, 10_000);
        CompletableFuture<String> calls = loadAndCallOnItsOwnThread("earlytest.NamedAtLoad");
        Thread.sleep(300);
        assertThat(calls).as("the class waits for the rules at its load").isNotDone();
        assertThat(woven).doesNotContain("earlytest.NamedAtLoad");

        assertThat(publish(rules(EARLY_RULES))).as("nothing to re-weave: it was not defined yet").isZero();

        assertThat(calls.get(10, TimeUnit.SECONDS)).isEqualTo("OK REJ REJ");
        assertThat(woven).contains("earlytest.NamedAtLoad");
    }

    @Test
    void aClassNoGlobOfTheFileMatchesLoadsAtOnce() throws Exception {
        installAwaiting(new String[] {"earlytest.Named*", "earlytest.Other"}, null, 10_000);
        CompletableFuture<String> calls = loadAndCallOnItsOwnThread("earlytest.NotNamed");
        assertThat(calls.get(5, TimeUnit.SECONDS)).as("no rules yet: not limited").isEqualTo("OK OK OK");
        assertThat(woven).doesNotContain("earlytest.NotNamed");
    }

    @Test
    void aClassTheRulesThreadLoadsDoesNotWaitAndIsWovenAfterTheParse() throws Exception {
        CompletableFuture<String> calls = new CompletableFuture<>();
        Thread rulesThread = new Thread(() -> {
            try {
                calls.complete(callThrice("earlytest.LoadedByRulesThread"));
            } catch (Throwable t) {
                calls.completeExceptionally(t);
            }
        }, "limiter-rules");
        installAwaiting(new String[] {"earlytest.*"}, rulesThread, 10_000);
        rulesThread.start();
        assertThat(calls.get(5, TimeUnit.SECONDS)).isEqualTo("OK OK OK");

        assertThat(publish(rules(EARLY_RULES))).as("remembered, re-woven").isEqualTo(1);
        assertThat(woven).contains("earlytest.LoadedByRulesThread");
    }

    @Test
    void aClassWaitsForTheRulesNoLongerThanTheBoundAndIsWovenOnceTheyCome() throws Exception {
        installAwaiting(new String[] {"earlytest.*"}, null, 1_500);
        long started = System.nanoTime();
        CompletableFuture<String> calls = loadAndCallOnItsOwnThread("earlytest.WaitsInVain");
        assertThat(calls.get(5, TimeUnit.SECONDS)).isEqualTo("OK OK OK");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(1_500);
        // one class waited in vain: the next ones load at once (each would wait as long again)
        long next = System.nanoTime();
        assertThat(loadAndCallOnItsOwnThread("earlytest.AfterGivingUp").get(5, TimeUnit.SECONDS))
                .isEqualTo("OK OK OK");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - next)).isLessThan(1_000);

        assertThat(publish(rules(EARLY_RULES))).as("remembered, re-woven").isEqualTo(2);
        assertThat(woven).contains("earlytest.WaitsInVain", "earlytest.AfterGivingUp");
    }

    @Test
    void aFailedParseLetsAWaitingClassLoadAtOnce() throws Exception {
        installAwaiting(new String[] {"earlytest.*"}, null, 10_000);
        CompletableFuture<String> calls = loadAndCallOnItsOwnThread("earlytest.ParseFails");
        Thread.sleep(300);
        assertThat(calls).isNotDone();
        long failed = System.nanoTime();
        transformer.rulesFailed();
        assertThat(calls.get(5, TimeUnit.SECONDS)).isEqualTo("OK OK OK");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failed)).isLessThan(5_000);
        assertThat(woven).doesNotContain("earlytest.ParseFails");
    }

    @Test
    void noClassIsMissedWhileLoadingRacesThePublicationOfTheRules() throws Exception {
        installAwaiting();
        RuleSetHolder holder = rules("""
                version: 1
                rules:
                  - id: racing
                    match: { method: { class: 'awaittest.*', method: call } }
                    limit: 1000000
                    window: 1h
                """);
        int threads = 8;
        int perThread = 60;
        CountDownLatch halfway = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<ClassLoader> loaders = new ArrayList<>(); // kept reachable: their classes must stay loaded
        List<Future<Set<String>>> defined = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                SyntheticLoader loader = new SyntheticLoader();
                loaders.add(loader);
                defined.add(pool.submit(() -> {
                    Set<String> names = new HashSet<>();
                    for (int i = 0; i < perThread; i++) {
                        String name = THREADS_PACKAGE + ".C" + thread + "x" + i;
                        loader.define(name);
                        names.add(name);
                        if (i == perThread / 2) {
                            halfway.countDown();
                        }
                    }
                    return names;
                }));
            }
            halfway.await();
            transformer.rulesLoadedLate(holder, inst); // while the other threads are still defining classes
            Set<String> all = new HashSet<>();
            for (Future<Set<String>> names : defined) {
                all.addAll(names.get());
            }

            assertThat(all).hasSize(threads * perThread);
            assertThat(woven).containsAll(all);
        } finally {
            pool.shutdownNow();
        }
        assertThat(loaders).hasSize(threads);
    }

    /** Defines classes with one method {@code String call()}, each of which a glob rule names. */
    private static final class SyntheticLoader extends ClassLoader {

        SyntheticLoader() {
            super(RulesAwaitWeavingTest.class.getClassLoader());
        }

        void define(String name) {
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name.replace('.', '/'), null,
                    "java/lang/Object", null);
            MethodVisitor call = writer.visitMethod(Opcodes.ACC_PUBLIC, "call", "()Ljava/lang/String;", null, null);
            call.visitCode();
            call.visitLdcInsn(name);
            call.visitInsn(Opcodes.ARETURN);
            call.visitMaxs(0, 0);
            call.visitEnd();
            writer.visitEnd();
            byte[] bytes = writer.toByteArray();
            defineClass(name, bytes, 0, bytes.length);
        }
    }
}
