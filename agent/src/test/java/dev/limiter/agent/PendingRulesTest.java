package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
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
 * Rules that load in the background at start-up: which files may do so, and that a request arriving before
 * them waits and is then checked by the real limiter (or, if they never come, runs unchecked and releases
 * nothing).
 */
class PendingRulesTest {

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
    }

    private static boolean mayName(String text) {
        return PendingRules.mayNameClasses(text.getBytes(StandardCharsets.UTF_8));
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
        assertThat(PendingRules.mayNameClasses("r\0u\0l\0e\0s\0".getBytes(StandardCharsets.ISO_8859_1))).isTrue();
        assertThat(PendingRules.loading(dir.resolve("missing.yml")).mayNameClasses()).isTrue();
    }

    @Test
    void aRequestBeforeTheRulesWaitsForThemAndIsCheckedByTheRealLimiter() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n  - id: a\n    match: { http: { path: /** } }\n    limit: 1\n"
                + "    window: 1m\n");
        PendingRules rules = PendingRules.loading(file);
        assertThat(rules.mayNameClasses()).isFalse();
        assertThat(rules.now()).isNull();
        PendingServletDelegate pending = new PendingServletDelegate(rules);
        LimiterBridge.install(pending);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch started = new CountDownLatch(1);
        Thread request = new Thread(() -> {
            FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
            started.countDown();
            boolean rejected = LimiterBridge.servletEnter(http.request, http.response);
            events.add("rejected " + rejected);
            LimiterBridge.servletExit();
        });
        request.start();
        started.await();
        Thread.sleep(200);
        assertThat(events).as("the request waits for the rules").isEmpty();
        RuleSetHolder holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        BridgeDelegate real = new RecordingBridgeDelegate(events);
        pending.ready(real);
        rules.complete(holder);
        request.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(events).containsExactly("checked", "rejected true", "ended");
        assertThat(rules.await()).isSameAs(holder);
    }

    @Test
    void aRequestWhoseRulesDoNotComeInTimeRunsUncheckedAndReleasesNothing() {
        PendingRules rules = PendingRules.loading(dir.resolve("slow.yml"));
        PendingServletDelegate pending = new PendingServletDelegate(rules, 50);
        LimiterBridge.install(pending);
        FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
        long started = System.nanoTime();
        assertThat(LimiterBridge.servletEnter(http.request, http.response)).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(50);
        List<String> events = new ArrayList<>();
        pending.ready(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                events.add("checked");
                return false;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                events.add("ended");
            }
        });
        LimiterBridge.servletExit(); // the unchecked request ends: nothing to release in the real limiter
        assertThat(events).isEmpty();
        LimiterBridge.servletEnter(http.request, http.response); // the next one goes straight to it
        LimiterBridge.servletExit();
        assertThat(events).containsExactly("checked", "ended");
    }
}
