package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a woven Vert.x Web router sees of the bridge: nothing without a delegate or while disabled, the delegate's
 * answer, and no failure of the delegate's reaching the router. The woven class itself runs in
 * QuarkusHttpLimiterTest (a forked Quarkus server).
 */
class RoutingBridgeTest {

    private final List<Object> routed = new ArrayList<>();

    @AfterEach
    void uninstall() {
        RoutingBridge.install(null);
        LimiterBridge.setEnabled(true);
    }

    @Test
    void withoutADelegateOrWhileDisabledEveryRequestIsRouted() {
        assertThat(RoutingBridge.enter("context")).isFalse();
        RoutingBridge.install(context -> routed.add(context));
        LimiterBridge.setEnabled(false);
        assertThat(RoutingBridge.enter("context")).isFalse();
        assertThat(routed).isEmpty();
    }

    @Test
    void theDelegatesAnswerTellsWhetherToRoute() {
        RoutingBridge.install(context -> routed.add(context) && context.equals("rejected"));
        assertThat(RoutingBridge.enter("admitted")).isFalse();
        assertThat(RoutingBridge.enter("rejected")).isTrue();
        assertThat(routed).containsExactly("admitted", "rejected");
    }

    @Test
    void aFailingDelegateIsCountedAndTheRequestIsRouted() {
        long before = LimiterBridge.internalErrors();
        RoutingBridge.install(context -> {
            throw new IllegalStateException("routing");
        });
        assertThat(RoutingBridge.enter("context")).isFalse();
        assertThat(LimiterBridge.internalErrors()).isEqualTo(before + 1);
    }
}
