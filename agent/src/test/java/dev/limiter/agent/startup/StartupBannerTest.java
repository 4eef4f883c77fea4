package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up line when there is no rules file at all: annotations only, not "invalid rules". */
class StartupBannerTest {

    @TempDir
    Path dir;

    private static String bannerFor(Path file) {
        RulesFile read = RulesFile.read(file);
        RuleSetHolder holder = RuleSetHolder.open(read.path(), read.bytes(), SystemClock.INSTANCE,
                LimiterFactory.LOCAL);
        assertThat(holder.current().rules()).isEmpty();
        return StartupBanner.of("test", holder);
    }

    @Test
    void noFileAtAllRunsWithAnnotationsOnlyAndSaysSoInOneLine() {
        Path file = dir.resolve("rules.yml");
        assertThat(bannerFor(file)).isEqualTo("limiter test started: rules " + file
                + " (no such file: running with @Limit annotations only until it appears)");
    }

    @Test
    void aDanglingLinkIsStillAnInvalidFile() throws Exception {
        Path file = Files.createSymbolicLink(dir.resolve("rules.yml"), Path.of("gone.yml"));
        assertThat(bannerFor(file)).startsWith("limiter test started: rules " + file + ", invalid rules");
    }
}
