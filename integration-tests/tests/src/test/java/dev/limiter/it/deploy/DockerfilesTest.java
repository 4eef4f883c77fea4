package dev.limiter.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The examples' Dockerfiles parse and lint clean with dockerfile-utils (npm; the parser and validator behind the
 * Docker language server: instructions, their arguments and flags, ARG before FROM), which must also refuse a
 * broken copy. No Docker engine runs here, so neither file is built: this is as far as they can be checked. The
 * package is installed by scripts/test ({@code scripts/lib/prerequisites.sh}) into {@link #INSTALL}, or
 * {@code $LIMITER_DOCKERFILE_UTILS}.
 */
class DockerfilesTest {

    static final Path INSTALL = Path.of(System.getProperty("user.home"), ".cache", "limiter", "dockerfile-utils");

    @Test
    void theExampleDockerfilesLintClean() throws Exception {
        for (String name : List.of("Dockerfile", "Dockerfile.agent")) {
            Path dockerfile = DeployExamples.root().resolve("docker").resolve(name);
            Lint lint = lint(dockerfile);
            assertThat(lint.exit()).as(dockerfile + "\n" + lint.output()).isZero();
            assertThat(lint.output()).as(dockerfile.toString()).isBlank();
        }
    }

    @Test
    void theLinterRefusesABrokenDockerfile() throws Exception {
        Path broken = Files.createTempFile("limiter-it-Dockerfile", "");
        try {
            String dockerfile = DeployExamples.read(DeployExamples.dockerfile())
                    .replace("COPY limiter.jar", "COPY --chmd=644 limiter.jar")
                    .replaceAll("(?m)^ENV JAVA_TOOL_OPTIONS=.*$", "ENV JAVA_TOOL_OPTIONS");
            Files.writeString(broken, dockerfile, StandardCharsets.UTF_8);
            Lint lint = lint(broken);
            assertThat(lint.exit()).as(lint.output()).isNotZero();
            assertThat(lint.output()).contains("Unknown flag: chmd", "ENV must have two arguments");
        } finally {
            Files.deleteIfExists(broken);
        }
    }

    private record Lint(int exit, String output) {
    }

    private static Lint lint(Path dockerfile) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(linter().toString(), "lint", dockerfile.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("dockerfile-utils lint still running after 2 minutes");
        }
        return new Lint(process.exitValue(), output);
    }

    private static Path linter() {
        String configured = System.getenv("LIMITER_DOCKERFILE_UTILS");
        Path root = configured == null || configured.isBlank() ? INSTALL : Path.of(configured);
        Path linter = root.resolve("node_modules/.bin/dockerfile-utils");
        if (!Files.isExecutable(linter)) {
            throw new AssertionError("dockerfile-utils is missing (" + linter + "): scripts/test installs it; by hand:"
                    + " npm install --prefix " + root + " dockerfile-utils@0.16.3");
        }
        return linter;
    }
}
