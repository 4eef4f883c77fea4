package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;

/**
 * The Byte Buddy {@code AgentBuilder} kept behind {@code -Dlimiter.transformer=agent-builder} still weaves
 * servlets and filters like our own transformer ({@link WeaverTest} runs the default).
 */
class AgentBuilderFallbackTest {

    private static Instrumentation inst;
    private static ResettableClassFileTransformer transformer;
    private final List<String> events = new ArrayList<>();

    @BeforeAll
    static void weave() {
        inst = ByteBuddyAgent.install();
        System.setProperty(Weaver.TRANSFORMER_PROPERTY, Weaver.AGENT_BUILDER);
        try {
            transformer = Weaver.install(inst, new ThrottledLog("dev.limiter.test", 1000));
        } finally {
            System.clearProperty(Weaver.TRANSFORMER_PROPERTY);
        }
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }

    @AfterEach
    void uninstall() {
        LimiterBridge.install(null);
    }

    @Test
    void theAgentBuilderIsUsedOnlyWhenAskedFor() {
        assertThat(transformer).isNotInstanceOf(LimiterTransformer.class);
        assertThat(Weaver.usesAgentBuilder()).isFalse();
    }

    @Test
    void aServletBehindAFilterIsCheckedOnceAndRuns() throws Exception {
        LimiterBridge.install(new BridgeDelegate() {
            @Override
            public boolean onRequestStart(RequestFrame frame) {
                events.add("start " + frame.request());
                return false;
            }

            @Override
            public void onRequestEnd(RequestFrame frame) {
                events.add("end");
            }
        });
        JakartaHello servlet = new JakartaHello();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/hello");
        new JakartaPassFilter(servlet).doFilter((jakarta.servlet.ServletRequest) http.request,
                (jakarta.servlet.ServletResponse) http.response, null);
        assertThat(servlet.bodies).hasValue(1);
        assertThat(events).containsExactly("start FakeRequest", "end");
    }
}
