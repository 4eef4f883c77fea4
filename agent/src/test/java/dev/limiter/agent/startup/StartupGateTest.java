package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
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
 * arriving before them waits at the gate ({@link PendingServletDelegate}) and is then checked by the real limiter
 * (or, if they never come, runs unchecked and releases nothing).
 */
class StartupGateTest {

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
    }

    private static boolean mayName(String text) {
        return RulesFile.mayNameClasses(text.getBytes(StandardCharsets.UTF_8));
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
        PendingServletDelegate pending = new PendingServletDelegate();
        LimiterBridge.install(pending);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Thread request = requestOnItsOwnThread(events);
        Thread.sleep(200);
        assertThat(events).as("the request waits for the rules").isEmpty();
        BridgeDelegate real = new RecordingBridgeDelegate(events);
        pending.ready(real);
        request.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("checked", "rejected true", "ended");
        assertThat(LimiterBridge.delegate()).isSameAs(real);
    }

    @Test
    void aRequestWhoseRulesDoNotComeInTimeRunsUncheckedAndReleasesNothing() {
        PendingServletDelegate pending = new PendingServletDelegate(50);
        LimiterBridge.install(pending);
        FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
        long started = System.nanoTime();
        assertThat(LimiterBridge.servletEnter(http.request, http.response)).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(50);
        List<String> events = new ArrayList<>();
        pending.ready(new RecordingBridgeDelegate(events, false));
        LimiterBridge.servletExit(); // the unchecked request ends: nothing to release in the real limiter
        assertThat(events).isEmpty();
        LimiterBridge.servletEnter(http.request, http.response); // the next one goes straight to it
        LimiterBridge.servletExit();
        assertThat(events).containsExactly("checked", "ended");
    }

    @Test
    void aFailedParseLetsTheWaitingRequestGoOnAtOnceUnchecked() throws Exception {
        PendingServletDelegate pending = new PendingServletDelegate();
        LimiterBridge.install(pending);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Thread request = requestOnItsOwnThread(events);
        long failedAt = System.nanoTime();
        pending.failed();
        request.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("rejected false");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failedAt))
                .as("woken by the failure, not by the %d ms bound", PendingServletDelegate.WAIT_MILLIS)
                .isLessThan(PendingServletDelegate.WAIT_MILLIS / 2);
    }
}
