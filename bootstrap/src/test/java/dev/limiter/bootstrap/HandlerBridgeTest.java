package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a woven request handler (Helidon's routing) sees of the bridge: nothing without a delegate or while
 * disabled, the delegate's answer or token, a token run at the exit even after the delegate is gone, and no failure
 * of the delegate's or the token's reaching the server. The woven class itself runs in Helidon4LimiterTest.
 */
class HandlerBridgeTest {

    private final List<Object> seen = new ArrayList<>();

    @AfterEach
    void uninstall() {
        HandlerBridge.install(null);
        LimiterBridge.setEnabled(true);
    }

    @Test
    void withoutADelegateOrWhileDisabledEveryRequestIsServed() {
        assertThat(HandlerBridge.enter("request", "response")).isNull();
        HandlerBridge.install((request, response) -> seen.add(request) ? HandlerBridge.ANSWERED : null);
        LimiterBridge.setEnabled(false);
        assertThat(HandlerBridge.enter("request", "response")).isNull();
        assertThat(seen).isEmpty();
    }

    @Test
    void theDelegatesAnswerOrTokenIsReturnedAndTheTokenRunsAtTheExit() {
        Runnable token = () -> seen.add("released");
        HandlerBridge.install((request, response) -> switch ((String) request) {
            case "rejected" -> HandlerBridge.ANSWERED;
            case "holding" -> token;
            default -> null;
        });
        assertThat(HandlerBridge.enter("rejected", "response")).isSameAs(HandlerBridge.ANSWERED);
        assertThat(HandlerBridge.enter("admitted", "response")).isNull();
        Object held = HandlerBridge.enter("holding", "response");
        assertThat(held).isSameAs(token);
        HandlerBridge.install(null);
        HandlerBridge.exit(held);
        HandlerBridge.exit(null);
        assertThat(seen).containsExactly("released");
    }

    @Test
    void aFailingDelegateOrTokenIsCountedAndNeverThrown() {
        long before = LimiterBridge.internalErrors();
        HandlerBridge.install((request, response) -> {
            throw new IllegalStateException("enter");
        });
        assertThat(HandlerBridge.enter("request", "response")).isNull();
        HandlerBridge.exit((Runnable) () -> {
            throw new IllegalStateException("exit");
        });
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 2);
    }
}
