package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;
import weavingtest.JavaxHello;

/**
 * Weaves real javax and jakarta servlets in this JVM (Byte Buddy self-attach) and drives them with fake
 * requests: the advice must reach the bridge once per request, skip the body on a rejection, and end the
 * request whatever the body does. The test servlets live outside {@code dev.limiter.} (which is ignored).
 */
class WeaverTest {

    private static Instrumentation inst;
    private static LimiterTransformer transformer;
    private final List<String> events = new ArrayList<>();
    private volatile boolean reject;

    @BeforeAll
    static void weave() {
        inst = ByteBuddyAgent.install();
        transformer = LimiterTransformer.servletsOnly(new ThrottledLog("dev.limiter.test", 1000), Diagnostics.WOVEN_LISTENER)
                .installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
    }

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
    }

    private void record() {
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                events.add("start " + frame.request());
                return reject;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                events.add("end");
            }
        });
    }

    @Test
    void aJakartaServletIsCheckedOnceAndRuns() throws Exception {
        record();
        JakartaHello servlet = new JakartaHello();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/hello");
        servlet.service((jakarta.servlet.ServletRequest) http.request, (jakarta.servlet.ServletResponse) http.response);
        assertThat(servlet.bodies).hasValue(1);
        assertThat(events).containsExactly("start FakeRequest", "end");
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aRejectedRequestSkipsTheServletBody() throws Exception {
        record();
        reject = true;
        JakartaHello servlet = new JakartaHello();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/hello");
        servlet.service((jakarta.servlet.ServletRequest) http.request, (jakarta.servlet.ServletResponse) http.response);
        assertThat(servlet.bodies).hasValue(0);
        assertThat(events).containsExactly("start FakeRequest", "end");
    }

    @Test
    void aServletBehindAFilterIsNotCountedTwice() throws Exception {
        record();
        JakartaHello servlet = new JakartaHello();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/hello");
        new JakartaPassFilter(servlet).doFilter((jakarta.servlet.ServletRequest) http.request,
                (jakarta.servlet.ServletResponse) http.response, null);
        assertThat(servlet.bodies).hasValue(1);
        assertThat(events).containsExactly("start FakeRequest", "end");
    }

    @Test
    void aJavaxServletIsWovenTooAndEndsTheRequestWhenItThrows() {
        record();
        JavaxHello servlet = new JavaxHello();
        servlet.fail = true;
        FakeHttp http = new FakeHttp("javax.servlet", "/hello");
        assertThatThrownBy(() -> servlet.service((javax.servlet.ServletRequest) http.request,
                (javax.servlet.ServletResponse) http.response)).hasMessage("application failure");
        assertThat(events).containsExactly("start FakeRequest", "end");
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void theRequestIsVisibleToLaterChecksOnTheSameThreadUntilItEnds() throws Exception {
        record();
        JakartaHello servlet = new JakartaHello();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/hello");
        servlet.service((jakarta.servlet.ServletRequest) http.request, (jakarta.servlet.ServletResponse) http.response);
        assertThat(servlet.requestSeenByBody).isSameAs(http.request);
        assertThat(LimiterBridge.currentRequest()).isNull();
        assertThat(Diagnostics.wovenClasses()).isGreaterThanOrEqualTo(2);
    }
}
