package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.SimpleRemapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @Limit} with the packaged {@code limiter.jar} in forked JVMs (bound to {@code integration-test}, after
 * {@code package}; named for the jar-layout execution that runs such tests): no rules file at all, exact
 * admissions, the exception and its rule id, a class-level annotation, a bad annotation logged once and left
 * unlimited, a rules file that appears and overrides an annotation by id, a reload that gives it back, JMX
 * {@code Source}; and {@code validate --classpath} on the same classes.
 */
class AnnotatedAppJarLayoutTest {

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {
    }

    private Result run(List<String> command) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void annotationsWorkWithoutARulesFileAndAFileThatAppearsOverridesThemUntilItDropsTheRule() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Result result = run(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar() + "=rules=" + rules,
                "-Dlimiter.jmx.delay=0ms", "-cp", PackagedAgent.testClasses(), "annotest.AnnotationProbe", rules.toString()));
        assertThat(result.exit()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).doesNotContain("timeout=").contains(
                "send admitted=2\n",
                "other admitted=5\n",
                "rejected=dev.limiter.api.RateLimitExceededException rule=anno-send retry-positive=true\n",
                "daily admitted=3\n",
                "export admitted=1\n",
                "bad admitted=5\n",
                "annotation admitted=1\n",
                "source before=annotation annotest.Overridden#call\n",
                "override admitted=3\n",
                "source override=rules.yml:3 (overrides annotation annotest.Overridden#call)\n",
                "annotation again admitted=1\n",
                "source after=annotation annotest.Overridden#call\n",
                "send-mbean source=annotation annotest.Mailer#send\n");
        assertThat(result.err()).containsOnlyOnce("no such file: running with @Limit annotations only")
                .containsOnlyOnce("limiter: bad @Limit on annotest.BadWindow#send: window: window '5 minutes' is not"
                        + " a duration")
                .doesNotContain("invalid rules");
    }

    @Test
    void validateWithAClassPathReportsEveryAnnotationAndTheBadOnes() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: anno-override
                    match: { method: { class: annotest.Overridden, method: call } }
                    limit: 3
                    window: 1h
                """);
        Result result = run(List.of(PackagedAgent.java(), "-jar", PackagedAgent.jar(), "validate", "--classpath", PackagedAgent.testClasses(),
                rules.toString()));
        assertThat(result.exit()).as(result.err()).isEqualTo(1);
        assertThat(result.out()).contains("rules.yml: OK, 1 rule",
                "annotest.Mailer#send: anno-send (method annotest.Mailer#send, key arg:0",
                "annotest.Reports#daily: annotest.Reports.daily (",
                "annotest.Reports#weekly: annotest.Reports.weekly (",
                "annotest.Reports#export: anno-export (",
                "annotest.Overridden#call: anno-override (",
                "; overridden by rules.yml:3")
                .doesNotContain("Reports#helper", "Mailer#other")
                .containsPattern("classpath: \\d+ annotated methods, 1 problem");
        assertThat(result.err()).containsOnlyOnce("annotest.BadWindow#send: bad @Limit: window: window '5 minutes'"
                + " is not a duration");

        Path good = dir.resolve("good");
        Files.createDirectories(good.resolve("annotest"));
        Files.copy(Path.of(PackagedAgent.testClasses(), "annotest", "Mailer.class"), good.resolve("annotest/Mailer.class"));
        Result ok = run(List.of(PackagedAgent.java(), "-jar", PackagedAgent.jar(), "validate", "--classpath=" + good));
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("classpath: 1 annotated method, 0 problems");

        // the agent does not look for @Limit in a library's package: validate says so instead of listing it
        Path library = dir.resolve("library");
        Files.createDirectories(library.resolve("org/springframework/limitertest"));
        ClassWriter renamed = new ClassWriter(0);
        new ClassReader(Files.readAllBytes(Path.of(PackagedAgent.testClasses(), "annotest", "Reports.class"))).accept(
                new ClassRemapper(renamed, new SimpleRemapper(Opcodes.ASM9, "annotest/Reports",
                        "org/springframework/limitertest/Reports")), 0);
        Files.write(library.resolve("org/springframework/limitertest/Reports.class"), renamed.toByteArray());
        Result ignored = run(List.of(PackagedAgent.java(), "-jar", PackagedAgent.jar(), "validate", "--classpath=" + library));
        assertThat(ignored.exit()).as(ignored.err()).isEqualTo(1);
        assertThat(ignored.err()).containsOnlyOnce("org.springframework.limitertest.Reports#daily: @Limit is not read"
                + " in the classes of a library package (org.springframework.); limit the method with a method: rule");
        assertThat(ignored.out()).doesNotContain("Reports#daily:");
    }
}
