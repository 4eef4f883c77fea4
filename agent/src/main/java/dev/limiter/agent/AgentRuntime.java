package dev.limiter.agent;

import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;

/**
 * What the running agent is made of, for the parts wired after start-up (JMX MBeans, re-weaving for new
 * method rules): the rules holder, the instrumentation, the throttled error log.
 *
 * <p>Published once by {@link AgentInstaller} after the bridge and the transformer are installed; null before
 * (and in unit tests that do not install the agent). It lives in the agent's isolated loader, so the
 * application cannot reach it.
 *
 * @param holder          the rules in force and the reload machinery
 * @param instrumentation the JVM's instrumentation, for retransformation
 * @param errors          the throttled log every limiter failure goes to
 */
public record AgentRuntime(RuleSetHolder holder, Instrumentation instrumentation, ThrottledLog errors) {

    private static volatile AgentRuntime current;

    /** The running agent, or null if the agent has not (yet) started in this JVM. */
    public static AgentRuntime current() {
        return current;
    }

    static void publish(AgentRuntime runtime) {
        current = runtime;
    }
}
