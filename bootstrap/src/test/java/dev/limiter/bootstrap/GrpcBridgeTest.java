package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What woven gRPC {@code startCall} code sees of the bridge: nothing without a delegate, the delegate's rejection,
 * a held token handed to the returned listener or given back once on a throw, and no failure of the delegate's
 * reaching grpc-java. The woven classes themselves run in GrpcLimiterTest (a forked grpc-java server).
 */
class GrpcBridgeTest {

    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void uninstall() {
        GrpcBridge.install(null);
        LimiterBridge.setEnabled(true);
        GrpcBridge.failed(); // no token left on this thread by a failed test
    }

    @Test
    void withoutADelegateOrWhileDisabledEveryCallStartsUntouched() {
        assertThat(GrpcBridge.enter("call", "headers")).isNull();
        assertThat(GrpcBridge.exit("listener")).isEqualTo("listener");
        GrpcBridge.install(new Recording(null, false));
        LimiterBridge.setEnabled(false);
        assertThat(GrpcBridge.enter("call", "headers")).isNull();
        assertThat(calls).isEmpty();
    }

    @Test
    void aRejectionIsTheListenerToReturn() {
        GrpcBridge.install(new Recording("no-op listener", false));
        assertThat(GrpcBridge.enter("call", "headers")).isEqualTo("no-op listener");
        assertThat(calls).containsExactly("start call headers");
    }

    @Test
    void aHeldTokenWrapsTheReturnedListenerOnceAndOnlyOnThatCall() {
        GrpcBridge.install(new Recording(null, true));
        assertThat(GrpcBridge.enter("call", "headers")).isNull();
        assertThat(GrpcBridge.exit("listener")).isEqualTo("releasing(listener)");
        assertThat(GrpcBridge.exit("next")).as("the slot is empty after its call").isEqualTo("next");
        GrpcBridge.failed();
        assertThat(calls).containsExactly("start call headers", "return listener token");
    }

    @Test
    void aThrowingHandlerGivesTheTokenBackOnce() {
        GrpcBridge.install(new Recording(null, true));
        GrpcBridge.enter("call", "headers");
        GrpcBridge.failed();
        GrpcBridge.failed();
        assertThat(calls).containsExactly("start call headers", "failed token");
    }

    @Test
    void aFailingDelegateIsCountedAndTheCallRunsUnchanged() {
        long before = LimiterBridge.internalErrors();
        GrpcBridge.install(new Recording(null, true) {
            @Override
            public Object onExchangeStart(Object call, Object headers) {
                throw new IllegalStateException("start");
            }
        });
        assertThat(GrpcBridge.enter("call", "headers")).isNull();
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 1);

        GrpcBridge.install(new Recording(null, true) {
            @Override
            public Object onExchangeReturn(Object listener, Object token) {
                throw new IllegalStateException("return");
            }
        });
        GrpcBridge.enter("call", "headers");
        assertThat(GrpcBridge.exit("listener")).as("unwrapped").isEqualTo("listener");
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 2);
        assertThat(calls).as("the token given back at once").containsExactly("start call headers", "failed token");
    }

    private class Recording implements ReactiveDelegate {

        private final Object answer;
        private final boolean hold;

        Recording(Object answer, boolean hold) {
            this.answer = answer;
            this.hold = hold;
        }

        @Override
        public Object onExchangeStart(Object call, Object headers) {
            calls.add("start " + call + " " + headers);
            if (hold) {
                GrpcBridge.hold("token");
            }
            return answer;
        }

        @Override
        public Object onExchangeReturn(Object listener, Object token) {
            calls.add("return " + listener + " " + token);
            return "releasing(" + listener + ")";
        }

        @Override
        public void onExchangeFailed(Object token) {
            calls.add("failed " + token);
        }
    }
}
