package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachArgumentsTest {

    @TempDir
    Path dir;

    @Test
    void aBareRulesPathBecomesAnAbsoluteRulesArgument() throws Exception {
        Files.writeString(dir.resolve("rules.yml"), "version: 1\n");
        assertThat(AttachArguments.agentArgument("rules.yml", dir)).isEqualTo("rules=" + dir.resolve("rules.yml"));
        assertThat(AttachArguments.agentArgument(" ./rules.yml ", dir)).isEqualTo("rules=" + dir.resolve("rules.yml"));
    }

    @Test
    void pairsKeepTheirOrderAndOnlyTheRulesPathChanges() throws Exception {
        Files.writeString(dir.resolve("rules.yml"), "version: 1\n");
        assertThat(AttachArguments.agentArgument("strict=true, rules=rules.yml,prometheus=127.0.0.1:9464", dir))
                .isEqualTo("strict=true,rules=" + dir.resolve("rules.yml") + ",prometheus=127.0.0.1:9464");
    }

    @Test
    void noArgumentLeavesTheChoiceToTheAgent() throws Exception {
        assertThat(AttachArguments.agentArgument(null, dir)).isEmpty();
        assertThat(AttachArguments.agentArgument("  ", dir)).isEmpty();
    }

    @Test
    void aMissingRulesFileIsRefusedHere() {
        assertThatThrownBy(() -> AttachArguments.agentArgument("missing.yml", dir))
                .isInstanceOfSatisfying(CliFailure.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.FAILED))
                .hasMessage("no rules file " + dir.resolve("missing.yml"));
        assertThatThrownBy(() -> AttachArguments.agentArgument("rules=missing.yml,strict=true", dir))
                .isInstanceOf(CliFailure.class);
    }
}
