package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import weavingtest.FakeHttp;

/**
 * A rules file written and opened, and a {@link ServletLimiter} over it installed on the bridge: the servlet
 * adapter as woven code reaches it, without a container. Close it after each test (it uninstalls the limiter).
 */
final class BridgeRules implements AutoCloseable {

    final RuleSetHolder holder;
    final ServletLimiter limiter;

    private BridgeRules(RuleSetHolder holder) {
        this.holder = holder;
        this.limiter = new ServletLimiter(holder, new ThrottledLog("dev.limiter.test", 0));
    }

    /** Writes {@code version: 1} and {@code rulesYaml} to {@code dir}/rules.yml, opens it and installs it. */
    static BridgeRules install(Path dir, String rulesYaml) throws IOException {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\n" + rulesYaml);
        RuleSetHolder holder = RuleSetHolder.open(file);
        assertThat(holder.lastError()).isNull();
        BridgeRules rules = new BridgeRules(holder);
        LimiterBridge.install(rules.limiter);
        return rules;
    }

    /** One request through the bridge; true if it was rejected (the servlet body would be skipped). */
    static boolean call(FakeHttp http) {
        try {
            return LimiterBridge.servletEnter(http.request, http.response);
        } finally {
            LimiterBridge.servletExit();
        }
    }

    @Override
    public void close() {
        LimiterBridge.install(null);
        holder.close();
    }
}
