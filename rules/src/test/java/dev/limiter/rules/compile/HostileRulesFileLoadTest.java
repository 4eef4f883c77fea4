package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A first load of each {@link HostileRulesFile} by path, as at start-up: one clear error (never another
 * exception, a {@code StackOverflowError}, a hang or unbounded memory), within a generous time bound and an
 * allocation budget. Next to them, what must keep working: the largest allowed file, a symlink to a regular
 * file (a ConfigMap's), a byte-order mark.
 */
class HostileRulesFileLoadTest {

    /** Generous: a load takes milliseconds; only a hang, or a machine at a standstill, comes near it. */
    static final long MAX_MILLIS = 5_000;
    /** Past this, a load is taken for hung and abandoned. */
    static final Duration HANG = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(HostileRulesFile.class)
    void isRefusedWithOneClearErrorInBoundedTimeAndMemory(HostileRulesFile hostile) throws Exception {
        Path file = dir.resolve("rules.yml");
        hostile.replace(file);
        // preemptive, so a load that blocks (a named pipe opened) fails the test instead of hanging the build
        LoadCost cost = assertTimeoutPreemptively(HANG, () -> LoadCost.of("load " + hostile,
                () -> RuleSetLoader.load(file, RuleSet.empty())));

        assertThat(cost.thrown()).isInstanceOf(RulesException.class);
        RulesException refused = (RulesException) cost.thrown();
        assertThat(refused.errors()).hasSize(1);
        assertFirstError(refused.errors().get(0), hostile);
        assertThat(cost.millis()).isLessThan(MAX_MILLIS);
        assertThat(cost.allocatedBytes()).isLessThan(hostile.maxAllocatedBytes());
    }

    static void assertFirstError(RulesError error, HostileRulesFile hostile) {
        if (hostile.expectedIsPattern()) {
            assertThat(error.toString()).matches(hostile.expected);
        } else {
            assertThat(error.toString()).isEqualTo(hostile.expected);
        }
    }

    @Test
    void aFileOfExactlyTheBoundLoadsInBoundedTimeAndMemory() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, HostileRulesFile.padded(HostileRulesFile.GOOD, YamlTreeReader.MAX_FILE_BYTES));
        assertThat(Files.size(file)).isEqualTo(YamlTreeReader.MAX_FILE_BYTES);
        RuleSet[] loaded = new RuleSet[1];
        LoadCost cost = LoadCost.of("load the largest allowed file",
                () -> loaded[0] = RuleSetLoader.load(file, RuleSet.empty()));

        assertThat(cost.thrown()).isNull();
        assertThat(loaded[0].rule("a")).isNotNull();
        assertThat(cost.millis()).isLessThan(MAX_MILLIS);
        assertThat(cost.allocatedBytes()).isLessThan(HostileRulesFile.Budget.PARSED.maxAllocatedBytes);
    }

    @Test
    void aSymlinkToARegularFileLoadsLikeTheFile() throws Exception {
        // the kubelet's layout: rules.yml -> ..data/rules.yml, ..data -> ..2026_01_01 (a directory)
        Path real = Files.createDirectory(dir.resolve("..2026_01_01"));
        Files.writeString(real.resolve("rules.yml"), HostileRulesFile.GOOD);
        Files.createSymbolicLink(dir.resolve("..data"), real.getFileName());
        Path file = Files.createSymbolicLink(dir.resolve("rules.yml"), Path.of("..data", "rules.yml"));

        assertThat(RuleSetLoader.load(file, RuleSet.empty()).rule("a")).isNotNull();
    }

    @Test
    void aByteOrderMarkIsAccepted() throws Exception {
        Path file = dir.resolve("rules.yml");
        byte[] text = HostileRulesFile.GOOD.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[text.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, withBom, 3, text.length);
        Files.write(file, withBom);

        assertThat(RuleSetLoader.load(file, RuleSet.empty()).rule("a")).isNotNull();
    }
}
