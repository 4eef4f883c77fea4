package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent handed to the JVM of the jar's own command line (every JVM in a container reads
 * {@code JAVA_TOOL_OPTIONS}) does not start there; in any other JVM it does. Read from the launcher's
 * {@code sun.java.command}, as the forked {@code JavaToolOptionsTest} runs it for real.
 */
class OwnCommandLineTest {

    private final String command = System.getProperty("sun.java.command");

    @TempDir
    Path dir;

    @AfterEach
    void restore() {
        if (command == null) {
            System.clearProperty("sun.java.command");
        } else {
            System.setProperty("sun.java.command", command);
        }
    }

    private static boolean ownCommandLine(String launched, File jar) {
        System.setProperty("sun.java.command", launched);
        return LimiterAgent.runsOwnCommandLine(jar);
    }

    @Test
    void theJarsOwnCommandLineIsRecognisedHoweverTheJarIsNamed() throws Exception {
        Path jar = Files.createFile(dir.resolve("limiter-0.1.0.jar"));
        Path link = Files.createSymbolicLink(dir.resolve("limiter.jar"), jar);
        assertThat(ownCommandLine(jar + " status 1", jar.toFile())).isTrue();
        assertThat(ownCommandLine(jar.toString(), jar.toFile())).as("no arguments: the usage").isTrue();
        assertThat(ownCommandLine(link + " validate rules.yml", jar.toFile())).as("through a link").isTrue();
        assertThat(ownCommandLine(dir.resolve("x/../limiter-0.1.0.jar") + " status", jar.toFile())).isTrue();
        assertThat(ownCommandLine("dev.limiter.agent.LimiterAgent validate rules.yml", jar.toFile()))
                .as("java -cp limiter.jar dev.limiter.agent.LimiterAgent").isTrue();
    }

    @Test
    void anyOtherProgramStartsTheAgent() throws Exception {
        Path jar = Files.createFile(dir.resolve("limiter.jar"));
        Path app = Files.createFile(dir.resolve("app.jar"));
        assertThat(ownCommandLine(app + " --server.port=8080", jar.toFile())).isFalse();
        assertThat(ownCommandLine("com.acme.Main limiter.jar", jar.toFile())).isFalse();
        assertThat(ownCommandLine("dev.limiter.agent.LimiterAgentTest", jar.toFile())).isFalse();
        assertThat(ownCommandLine("org.apache.catalina.startup.Bootstrap start", jar.toFile())).isFalse();
        assertThat(ownCommandLine("", jar.toFile())).as("a JVM created through JNI").isFalse();
    }
}
