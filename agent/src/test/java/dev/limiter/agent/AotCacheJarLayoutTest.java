package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.agent.testing.PackagedAgent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent beside the JVM's class caches. A Java 25 AOT cache ({@code -XX:AOTCacheOutput}, {@code -XX:AOTCache})
 * loads the classes it holds as the JVM starts, before premain: a method a rule names in such a class is limited
 * from its first call all the same (the class is retransformed at installation), and the training run, in which
 * the agent weaves nothing, makes a cache the JVM can use (one trained while classes were woven crashed it) and
 * that holds the agent's own classes (its loader defines them from the cache). On
 * every JDK the bridge classes go into the boot loader without appending the jar to the boot class path, so the
 * JVM's "Sharing is only supported for boot loader classes" warning is gone.
 */
class AotCacheJarLayoutTest {

    private static final String SHARING_WARNING = "Sharing is only supported for boot loader classes";

    @TempDir
    Path dir;
    private Path app;
    private Path rules;

    @BeforeEach
    void appAndRules() throws IOException {
        // an AOT cache holds classes from jars only, not from a directory
        app = dir.resolve("app.jar");
        try (OutputStream file = Files.newOutputStream(app); JarOutputStream out = new JarOutputStream(file)) {
            for (String name : List.of("aotapp/AotMain.class", "aotapp/Mailer.class")) {
                out.putNextEntry(new JarEntry(name));
                try (InputStream in = Files.newInputStream(Path.of(PackagedAgent.testClasses(), name))) {
                    in.transferTo(out);
                }
            }
        }
        rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: mail
                    match: { method: { class: aotapp.Mailer, method: send } }
                    strategy: token-bucket
                    limit: 2
                    window: 24h
                """);
    }

    @Test
    void theBridgeGoesIntoTheBootLoaderWithoutTheSharingWarning() throws Exception {
        Run run = run();
        assertThat(run.out).as(run.err).contains("ADMITTED 2 REJECTED 3");
        assertThat(run.err).doesNotContain(SHARING_WARNING).contains("limiter ");
    }

    @Test
    void aMethodInAClassTheAotCacheLoadsEarlyIsLimitedFromItsFirstCall() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "-XX:AOTCacheOutput is Java 25's");
        Path cache = dir.resolve("app.aot");

        Run training = run("-XX:AOTCacheOutput=" + cache);
        assertThat(training.out).as(training.err).contains("ADMITTED 5 REJECTED 0");
        assertThat(training.err).contains("an AOT cache's training run").doesNotContain("fatal error");
        assertThat(cache).isNotEmptyFile();

        Path loaded = dir.resolve("classes.txt");
        Run production = run("-XX:AOTCache=" + cache, "-Xlog:class+load:file=" + loaded);
        assertThat(production.out).as(production.err).contains("ADMITTED 2 REJECTED 3");
        assertThat(production.err).doesNotContain("fatal error").doesNotContain(SHARING_WARNING);
        String classes = Files.readString(loaded, StandardCharsets.UTF_8);
        assertThat(classes).as("the cache loaded the class before the agent started, and the agent wove it")
                .contains("aotapp.Mailer source: shared objects file")
                .contains("aotapp.Mailer source: __VM_RedefineClasses__");
        assertThat(classes).as("the agent's start-up, parse and weaving classes came from the cache")
                .contains("dev.limiter.agent.startup.Startup source: shared objects file")
                .contains("dev.limiter.rules.RuleSet source: shared objects file")
                .contains("dev.limiter.shaded.bytebuddy.jar.asm.ClassWriter source: shared objects file");
    }

    private Run run(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(PackagedAgent.java()));
        command.addAll(List.of(options));
        command.addAll(List.of("-javaagent:" + PackagedAgent.jar() + "=" + rules, "-cp", app.toString(),
                "aotapp.AotMain"));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        // a training run also assembles the cache in a second JVM
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the program ended").isTrue();
        Run run = new Run(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        assertThat(process.exitValue()).as(run.out + run.err).isZero();
        return run;
    }

    private record Run(String out, String err) {
    }
}
