package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * Rules that load in the background at start-up: which files may do so ({@link RulesFile}), and that a request
 * or a woven-method call arriving before them waits at the gate ({@link StartupGate}) and is then checked by the
 * real limiter (or, if they never come, runs unchecked and releases nothing).
 */
class StartupGateTest {

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
        LimiterBridge.installMethods(null);
    }

    private static boolean mayName(String text) {
        return RulesFile.mayNameClasses(text.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean mayHaveMethodRules(String text) {
        return RulesFile.mayHaveMethodRules(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void onlyAFileWithoutMethodOrJaxrsRulesIsKnownNotToNameClasses() {
        assertThat(mayName("version: 1\nrules:\n  - id: a\n    match: { http: { path: /a } }\n    limit: 1\n"))
                .isFalse();
        assertThat(mayName("rules:\n  - match: { method: { class: a.B, method: c } }\n")).isTrue();
        // an HTTP rule's methods list is not a method: rule, whatever the spacing and quoting of a real key
        assertThat(mayName("rules:\n  - match: { http: { path: /a, methods: [GET, POST] } }\n")).isFalse();
        assertThat(mayName("rules:\n  - match:\n      \"method\" : { class: a.B }\n")).isTrue();
        assertThat(mayName("rules:\n  - match:\n      'method':\t{ class: a.B }\n")).isTrue();
        assertThat(mayName("rules:\n  - match:\n      ? method\n      : { class: a.B }\n")).isTrue();
        assertThat(mayName("rules:\n  - match:\n      jaxrs: { class: a.B }\n")).isTrue();
        // of the two, only a method: rule may name a class whose loader sees no woven API; the method name of a
        // jaxrs: or grpc: match is a scalar, a method: rule's match is a mapping
        assertThat(mayHaveMethodRules("rules:\n  - match:\n      jaxrs: { class: a.B, method: byIp }\n")).isFalse();
        assertThat(mayHaveMethodRules("rules:\n  - match: { grpc: { service: a.B, method: '*' } }\n")).isFalse();
        assertThat(mayHaveMethodRules("rules:\n  - match: { jaxrs: { class: a.B, \"method\" : \"x\" } }\n"))
                .isFalse();
        assertThat(mayHaveMethodRules("rules:\n  - match: { method: { class: a.B, method: c } }\n")).isTrue();
        assertThat(mayHaveMethodRules("rules:\n  - match:\n      method:\n        class: a.B\n")).isTrue();
        assertThat(mayHaveMethodRules("rules:\n  - match:\n      method: &m { class: a.B }\n")).isTrue();
        assertThat(mayHaveMethodRules("rules:\n  - match:\n      method: # the mailer\n        class: a.B\n"))
                .isTrue();
        assertThat(mayHaveMethodRules("rules:\n  - match:\n      ? method\n      : { class: a.B }\n")).isTrue();
        assertThat(mayHaveMethodRules("rules:\n  - match: { \"m\\x65thod\": { class: a.B } }\n")).isTrue();
        // a YAML escape could spell the key; a NUL byte means UTF-16 or UTF-32, which the ASCII test cannot read
        assertThat(mayName("rules:\n  - match: { \"m\\x65thod\": { class: a.B } }\n")).isTrue();
        assertThat(RulesFile.mayNameClasses("r\0u\0l\0e\0s\0".getBytes(StandardCharsets.ISO_8859_1))).isTrue();
        assertThat(RulesFile.read(dir.resolve("missing.yml")).mayNameClasses()).isTrue();
        assertThat(RulesFile.read(dir.resolve("missing.yml")).bytes()).isNull();
    }

    /** Starts one request through the bridge on a new thread; returns once it has entered. */
    private static Thread requestOnItsOwnThread(List<String> events) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        Thread request = new Thread(() -> {
            FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
            started.countDown();
            events.add("rejected " + LimiterBridge.servletEnter(http.request, http.response));
            LimiterBridge.servletExit();
        });
        request.start();
        started.await();
        return request;
    }

    @Test
    void aRequestBeforeTheRulesWaitsForThemAndIsCheckedByTheRealLimiter() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n  - id: a\n    match: { http: { path: /** } }\n    limit: 1\n"
                + "    window: 1m\n");
        RulesFile rules = RulesFile.read(file);
        assertThat(rules.mayNameClasses()).isFalse();
        assertThat(rules.bytes()).isEqualTo(Files.readAllBytes(file));
        StartupGate gate = new StartupGate();
        gate.install();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Thread request = requestOnItsOwnThread(events);
        Thread.sleep(200);
        assertThat(events).as("the request waits for the rules").isEmpty();
        BridgeDelegate real = new RecordingBridgeDelegate(events);
        gate.ready(real, new RecordingMethodDelegate(events));
        request.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("checked", "rejected true", "ended");
        assertThat(LimiterBridge.delegate()).isSameAs(real);
    }

    @Test
    void aRequestWhoseRulesDoNotComeInTimeRunsUncheckedAndReleasesNothing() {
        StartupGate gate = new StartupGate(50);
        gate.install();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
        long started = System.nanoTime();
        assertThat(LimiterBridge.servletEnter(http.request, http.response)).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(50);
        List<String> events = new ArrayList<>();
        gate.ready(new RecordingBridgeDelegate(events, false), new RecordingMethodDelegate(events));
        LimiterBridge.servletExit(); // the unchecked request ends: nothing to release in the real limiter
        assertThat(events).isEmpty();
        LimiterBridge.servletEnter(http.request, http.response); // the next one goes straight to it
        LimiterBridge.servletExit();
        assertThat(events).containsExactly("checked", "ended");
    }

    @Test
    void aFailedParseLetsTheWaitingRequestGoOnAtOnceUnchecked() throws Exception {
        StartupGate gate = new StartupGate();
        gate.install();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Thread request = requestOnItsOwnThread(events);
        long failedAt = System.nanoTime();
        gate.failed();
        request.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("rejected false");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failedAt))
                .as("woken by the failure, not by the %d ms bound", StartupGate.WAIT_MILLIS)
                .isLessThan(StartupGate.WAIT_MILLIS / 2);
    }

    @Test
    void aWovenMethodCalledBeforeTheRulesWaitsAndIsCheckedByTheRealMethodLimiter() throws Exception {
        StartupGate gate = new StartupGate();
        gate.install();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch started = new CountDownLatch(1);
        Thread call = new Thread(() -> {
            started.countDown();
            Object token = LimiterBridge.methodEnter(7, "key", 1);
            events.add("token " + token);
            LimiterBridge.methodExit(7, token);
        });
        call.start();
        started.await();
        Thread.sleep(200);
        assertThat(events).as("the call waits for the rules").isEmpty();
        RecordingMethodDelegate real = new RecordingMethodDelegate(events);
        gate.ready(new RecordingBridgeDelegate(events), real);
        call.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("enter 7 key", "token held", "exit 7 held");
        assertThat(LimiterBridge.methodDelegate()).isSameAs(real);
    }

    @Test
    void theThreadThatLoadsTheRulesAndALateCallNeverWaitForever() {
        StartupGate loaders = new StartupGate(5_000);
        loaders.install();
        loaders.loadedBy(Thread.currentThread());
        long started = System.nanoTime();
        assertThat(LimiterBridge.methodEnter(1, null, 1)).isNull();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).as("the loader does not wait")
                .isLessThan(2_500); // far below the bound, far above a stalled host's hiccup
        StartupGate gate = new StartupGate(50);
        gate.install();
        started = System.nanoTime();
        assertThat(LimiterBridge.methodEnter(1, null, 1)).as("unchecked after the bound").isNull();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(50);
        LimiterBridge.methodExit(1, null);
    }

    /** A method delegate that records its calls and hands out the token "held". */
    private static final class RecordingMethodDelegate implements MethodDelegate {

        private final List<String> events;

        RecordingMethodDelegate(List<String> events) {
            this.events = events;
        }

        @Override
        public Object onMethodEnter(int site, Object keyArgument, long cost) {
            events.add("enter " + site + " " + keyArgument);
            return "held";
        }

        @Override
        public void onMethodExit(int site, Object token) {
            events.add("exit " + site + " " + token);
        }

        @Override
        public Object rejectionResponse(Object exception) {
            return null;
        }
    }
}
