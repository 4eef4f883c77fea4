package dev.limiter.agent.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code grpc:} rule written with the Java names of grpc-java's generated code (the Java package, the stub's
 * lower-case method) matches no call; the first call the server gets for the real {@code .proto} names says so,
 * once, with the names to write. A rule that merely matches another method stays quiet.
 */
class GrpcNameHintsTest {

    private static final String RULES = """
            version: 1
            rules:
              - { id: java-names, match: { grpc: { service: io.grpc.examples.helloworld.Greeter, method: sayHello } },
                  limit: 2, window: 1h }
              - { id: java-method, match: { grpc: { service: helloworld.Greeter, method: sayHello } }, limit: 2,
                  window: 1h }
              - { id: other-method, match: { grpc: { service: helloworld.Greeter, method: SayGoodbye } }, limit: 2,
                  window: 1h }
              - { id: other-service, match: { grpc: { service: acme.Orders } }, limit: 2, window: 1h }
            """;

    @TempDir
    Path dir;

    private RuleSetHolder holder;
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            warnings.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file);
        assertThat(holder.lastError()).isNull();
        Logger.getLogger("dev.limiter").addHandler(capture);
    }

    @AfterEach
    void close() {
        Logger.getLogger("dev.limiter").removeHandler(capture);
        holder.close();
    }

    @Test
    void aRuleWithJavaNamesIsToldTheProtoNamesOnceAndOtherRulesStayQuiet() {
        RuleSet rules = holder.current();
        GrpcNameHints hints = new GrpcNameHints();
        for (int i = 0; i < 3; i++) {
            hints.unmatched(rules, "helloworld.Greeter/SayHello", "helloworld.Greeter", "SayHello");
        }
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).contains("grpc rule java-names").contains("did you mean service:"
                + " helloworld.Greeter, method: SayHello?");
        assertThat(warnings.get(1)).contains("grpc rule java-method");
        assertThat(String.join("\n", warnings)).doesNotContain("other-method").doesNotContain("other-service");

        hints.unmatched(rules, "acme.Shipping/Track", "acme.Shipping", "Track");
        assertThat(warnings).as("a call no rule comes close to").hasSize(2);
    }

    @Test
    void aRuleThatMatchesNeedsNoHint() {
        RuleSet rules = holder.current();
        assertThat(GrpcNameHints.hint(rules.rule("other-service"), "acme.Orders", "Create")).isNull();
        assertThat(GrpcNameHints.hint(rules.rule("other-method"), "helloworld.Greeter", "SayHello"))
                .as("another method of the same service: a different rule, not a typo").isNull();
    }
}
