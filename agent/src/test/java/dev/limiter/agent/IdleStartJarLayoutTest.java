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
 * What the agent leaves out of a JVM that weaves nothing: the weaver's warm-up (ASM's writer) waits for a sign
 * that weaving is coming, and each stack's limiter for the first weave of its class. A file that may have
 * {@code method:} rules warms the weaver up at once: such a rule can name any class.
 */
class IdleStartJarLayoutTest {

    private static final String HTTP_JAXRS_GRPC = """
            version: 1
            rules:
              - id: items
                match: { http: { path: /api/items/** } }
                limit: 1000
                window: 1m
              - id: by-ip
                match: { jaxrs: { class: com.acme.Resource, method: byIp } }
                limit: 1000
                window: 1s
              - id: orders
                match: { grpc: { service: acme.Orders, method: '*' } }
                limit: 1000
                window: 1s
            """;

    @TempDir
    Path dir;

    @Test
    void aJvmThatWeavesNothingLoadsNeitherTheWeaverNorAStacksLimiter() throws Exception {
        String classes = loadedClasses(HTTP_JAXRS_GRPC);
        assertThat(classes).as("the rules are in force").contains("dev.limiter.agent.servlet.ServletLimiter ");
        assertThat(classes).doesNotContain("dev.limiter.agent.weave.WeaverWarmUp ")
                .doesNotContain("dev.limiter.shaded.bytebuddy.jar.asm.ClassWriter ")
                .doesNotContain("dev.limiter.agent.webflux.WebfluxLimiter ")
                .doesNotContain("dev.limiter.agent.grpc.GrpcLimiter ")
                .doesNotContain("dev.limiter.agent.micronaut.MicronautLimiter ")
                .doesNotContain("dev.limiter.agent.helidon.HelidonLimiter ")
                .doesNotContain("dev.limiter.agent.vertx.VertxRoutingLimiter ");
    }

    @Test
    void aFileWithAMethodRuleWarmsTheWeaverUpAtOnce() throws Exception {
        String classes = loadedClasses(HTTP_JAXRS_GRPC + """
                  - id: mail
                    match: { method: { class: com.acme.Mailer, method: send } }
                    limit: 2
                    window: 1m
                """);
        assertThat(classes).contains("dev.limiter.agent.weave.WeaverWarmUp ")
                .contains("dev.limiter.shaded.bytebuddy.jar.asm.ClassWriter ")
                .doesNotContain("dev.limiter.agent.webflux.WebfluxLimiter ");
    }

    /** The class-load log of {@code idleapp.IdleMain} run with the packaged agent and {@code rulesText}. */
    private String loadedClasses(String rulesText) throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, rulesText);
        Path log = dir.resolve("classes.txt");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(List.of(PackagedAgent.java(), "-Xlog:class+load:file=" + log,
                "-javaagent:" + PackagedAgent.jar() + "=" + rules, "-cp", PackagedAgent.testClasses(),
                "idleapp.IdleMain")).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the program ended").isTrue();
        String output = Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8);
        assertThat(output).contains("READY").contains("limiter ");
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
