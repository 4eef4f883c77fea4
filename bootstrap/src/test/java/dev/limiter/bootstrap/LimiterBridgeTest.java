package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimiterBridgeTest {

    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
        LimiterBridge.setEnabled(true);
    }

    private BridgeDelegate recording(boolean reject) {
        return new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                calls.add("start " + frame.request());
                return reject;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                calls.add("end " + frame.request());
            }
        };
    }

    @Test
    void withoutDelegateEverythingIsAllowedAndTheRequestIsStillTracked() {
        assertThat(LimiterBridge.servletEnter("req", "res")).isFalse();
        assertThat(LimiterBridge.currentRequest()).isEqualTo("req");
        LimiterBridge.servletExit();
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void onlyTheOutermostEntryIsChecked() {
        LimiterBridge.install(recording(false));
        assertThat(LimiterBridge.servletEnter("outer", "res")).isFalse();
        assertThat(LimiterBridge.servletEnter("inner", "res")).isFalse();
        assertThat(LimiterBridge.currentRequest()).isEqualTo("outer");
        LimiterBridge.servletExit();
        assertThat(calls).containsExactly("start outer");
        LimiterBridge.servletExit();
        assertThat(calls).containsExactly("start outer", "end outer");
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void aRejectionIsReportedToTheAdviceAndTheRequestStillEnds() {
        LimiterBridge.install(recording(true));
        assertThat(LimiterBridge.servletEnter("r", "res")).isTrue();
        LimiterBridge.servletExit();
        assertThat(calls).containsExactly("start r", "end r");
    }

    @Test
    void disabledBridgeAllowsAndDoesNotAskTheDelegate() {
        LimiterBridge.install(recording(true));
        LimiterBridge.setEnabled(false);
        assertThat(LimiterBridge.servletEnter("r", "res")).isFalse();
        LimiterBridge.servletExit();
        assertThat(calls).isEmpty();
    }

    @Test
    void aThrowingDelegateIsCountedAndTheRequestProceeds() {
        long before = LimiterBridge.internalErrors();
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                throw new IllegalStateException("boom");
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                throw new IllegalStateException("boom again");
            }
        });
        assertThat(LimiterBridge.servletEnter("r", "res")).isFalse();
        LimiterBridge.servletExit();
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 2);
        assertThat(LimiterBridge.currentRequest()).isNull();
    }

    @Test
    void anUnbalancedExitIsIgnored() {
        LimiterBridge.install(recording(false));
        LimiterBridge.servletExit();
        assertThat(LimiterBridge.servletEnter("r", "res")).isFalse();
        LimiterBridge.servletExit();
        assertThat(calls).containsExactly("start r", "end r");
    }

    @Test
    void theDelegateInstalledAtStartIsTheOneThatEndsTheRequest() {
        LimiterBridge.install(recording(false));
        LimiterBridge.servletEnter("r", "res");
        List<String> other = new ArrayList<>();
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                other.add("start");
                return false;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                other.add("end");
            }
        });
        LimiterBridge.servletExit();
        assertThat(calls).containsExactly("start r", "end r");
        assertThat(other).isEmpty();
    }
}
