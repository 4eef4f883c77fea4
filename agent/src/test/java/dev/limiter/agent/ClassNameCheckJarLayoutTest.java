package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code method:} rule whose class never loads says so, in a forked JVM with the packaged {@code limiter.jar}: one
 * warning naming the rule and the nearest loaded class, and {@code NoClassLoaded} in JMX; a rule whose class did
 * load gets neither; a rule whose class loads after the check clears {@code NoClassLoaded} as the class is woven,
 * not at the next check. The check runs half a second after start here ({@code limiter.classCheck.delay}).
 */
class ClassNameCheckJarLayoutTest {

    @TempDir
    Path dir;

    @Test
    void aMisspeltClassIsReportedWithTheNearestLoadedName() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: typo
                    match: { method: { class: classcheck.WaitingMian, method: work } }
                    limit: 1
                    window: 1h
                  - id: right
                    match: { method: { class: classcheck.WaitingMain, method: work } }
                    limit: 100
                    window: 1h
                  - id: late
                    match: { method: { class: classcheck.LateLoaded, method: work } }
                    limit: 100
                    window: 1h
                """);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(List.of(PackagedAgent.java(), "-Dlimiter.classCheck.delay=500",
                "-Dlimiter.jmx.delay=100", "-javaagent:" + PackagedAgent.jar() + "=rules=" + rules,
                "-cp", PackagedAgent.testClasses(), "classcheck.WaitingMain",
                "typo", "right", "late"))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);

        assertThat(stdout).as(stderr).contains("NoClassLoaded typo=true right=false late=true")
                .contains("after LateLoaded loaded: late=false");
        assertThat(stderr).contains("rule 'typo' (method classcheck.WaitingMian#work) names no class loaded")
                .contains("the nearest loaded class is classcheck.WaitingMain");
        assertThat(stderr).doesNotContain("rule 'right'");
        assertThat(stderr.split("rule 'typo'", -1)).as("warned once").hasSize(2);
    }
}
