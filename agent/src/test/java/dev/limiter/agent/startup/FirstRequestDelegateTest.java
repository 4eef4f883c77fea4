package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.jmx.JmxGate;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;

class FirstRequestDelegateTest {

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
    }

    @Test
    void theFirstRequestIsCheckedThroughItThenItStepsAsideAndOpensTheJmxGate() {
        List<String> events = new ArrayList<>();
        BridgeDelegate real = new RecordingBridgeDelegate(events);
        FirstRequestDelegate first = new FirstRequestDelegate(real);
        LimiterBridge.install(first);
        FakeHttp http = new FakeHttp("jakarta.servlet", "/a");

        assertThat(LimiterBridge.servletEnter(http.request, http.response)).as("the real verdict").isTrue();
        assertThat(LimiterBridge.delegate()).as("still serving the first request").isSameAs(first);
        LimiterBridge.servletExit();

        assertThat(events).containsExactly("checked", "ended");
        assertThat(LimiterBridge.delegate()).as("later requests go straight to the real delegate").isSameAs(real);
        assertThat(JmxGate.isOpen()).isTrue();

        LimiterBridge.servletEnter(http.request, http.response);
        LimiterBridge.servletExit();
        assertThat(events).containsExactly("checked", "ended", "checked", "ended");
    }

    @Test
    void itDoesNotReinstallTheRealDelegateOverAnotherOne() {
        BridgeDelegate real = new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                return false;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
            }
        };
        FirstRequestDelegate first = new FirstRequestDelegate(real);
        LimiterBridge.install(first);
        FakeHttp http = new FakeHttp("jakarta.servlet", "/a");
        LimiterBridge.servletEnter(http.request, http.response);
        LimiterBridge.install(null); // e.g. a test harness or an uninstall while the request runs
        LimiterBridge.servletExit();

        assertThat(LimiterBridge.delegate()).isNull();
    }
}
