package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a woven one-argument flow method (Micronaut's {@code RequestLifecycle.normalFlow}) sees of the bridge:
 * nothing without a delegate, the request alone handed over, the delegate's rejection, a held token handed to the
 * returned flow or given back once on a throw, and its own delegate beside WebFlux's. The woven class itself runs in
 * Micronaut4LimiterTest (a forked Micronaut server).
 */
class FlowBridgeTest {

    private final List<String> calls = new ArrayList<>();

    @AfterEach
    void uninstall() {
        FlowBridge.install(null);
        ReactiveBridge.install(null);
        LimiterBridge.setEnabled(true);
        FlowBridge.failed(); // no token left on this thread by a failed test
    }

    @Test
    void withoutADelegateOrWhileDisabledEveryRequestRunsUntouched() {
        assertThat(FlowBridge.enter("request")).isNull();
        assertThat(FlowBridge.exit("flow")).isEqualTo("flow");
        FlowBridge.install(new Recording(null, false));
        LimiterBridge.setEnabled(false);
        assertThat(FlowBridge.enter("request")).isNull();
        assertThat(calls).isEmpty();
    }

    @Test
    void theRequestAloneIsHandedOverAndARejectionIsTheFlowToReturn() {
        FlowBridge.install(new Recording("rejection flow", false));
        assertThat(FlowBridge.enter("request")).isEqualTo("rejection flow");
        assertThat(calls).containsExactly("start request null");
    }

    @Test
    void aHeldTokenGoesWithTheReturnedFlowOnceOrBackOnAThrow() {
        FlowBridge.install(new Recording(null, true));
        assertThat(FlowBridge.enter("request")).isNull();
        assertThat(FlowBridge.exit("flow")).isEqualTo("with(flow)");
        assertThat(FlowBridge.exit("next")).as("the slot is empty after its call").isEqualTo("next");
        FlowBridge.enter("request");
        FlowBridge.failed();
        FlowBridge.failed();
        assertThat(calls).containsExactly("start request null", "return flow token", "start request null",
                "failed token");
    }

    @Test
    void itsDelegateIsItsOwnBesideWebfluxs() {
        FlowBridge.install(new Recording(null, false));
        assertThat(ReactiveBridge.delegate()).isNull();
        assertThat(ReactiveBridge.enter("request", "response")).isNull();
        assertThat(calls).isEmpty();
    }

    private class Recording implements ReactiveDelegate {

        private final Object answer;
        private final boolean hold;

        Recording(Object answer, boolean hold) {
            this.answer = answer;
            this.hold = hold;
        }

        @Override
        public Object onExchangeStart(Object request, Object none) {
            calls.add("start " + request + " " + none);
            if (hold) {
                FlowBridge.hold("token");
            }
            return answer;
        }

        @Override
        public Object onExchangeReturn(Object flow, Object token) {
            calls.add("return " + flow + " " + token);
            return "with(" + flow + ")";
        }

        @Override
        public void onExchangeFailed(Object token) {
            calls.add("failed " + token);
        }
    }
}
