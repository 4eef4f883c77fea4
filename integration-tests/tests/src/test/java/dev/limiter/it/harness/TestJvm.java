package dev.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Java feature release of the JVM the forked servers run on ({@code limiter.test.jvm}), and the extension of
 * {@link TestJvmAtLeast} (the condition that skips a class needing a newer one). Read from the JDK's {@code release} file beside {@code bin/java}, else from
 * {@code java -version}; the tests' own JVM when no other is named.
 */
public final class TestJvm implements ExecutionCondition {

    private static final Pattern RELEASE = Pattern.compile("(?m)^JAVA_VERSION=\"(1\\.)?(\\d+)");
    private static final Pattern VERSION = Pattern.compile("version \"(1\\.)?(\\d+)");

    private static volatile int feature;

    /** The feature release ({@code 17}, {@code 25}) of {@code limiter.test.jvm}. */
    public static int feature() {
        if (feature == 0) {
            feature = read(Locations.java());
        }
        return feature;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        TestJvmAtLeast needed = context.getTestClass().map(type -> type.getAnnotation(TestJvmAtLeast.class))
                .orElse(null);
        if (needed == null || feature() >= needed.value()) {
            return ConditionEvaluationResult.enabled("the test JVM is Java " + feature());
        }
        return ConditionEvaluationResult.disabled(needed.what() + " needs Java " + needed.value()
                + "+; the test JVM " + Locations.java() + " is Java " + feature()
                + " (run with -Dlimiter.test.jvm=<a Java " + needed.value() + "+ bin/java>)");
    }

    private static int read(Path java) {
        Path current = Path.of(System.getProperty("java.home"), "bin", "java").toAbsolutePath().normalize();
        if (java.toAbsolutePath().normalize().equals(current)) {
            return Runtime.version().feature();
        }
        try {
            Path release = java.toAbsolutePath().getParent().getParent().resolve("release");
            if (Files.isRegularFile(release)) {
                Matcher matcher = RELEASE.matcher(Files.readString(release, StandardCharsets.ISO_8859_1));
                if (matcher.find()) {
                    return Integer.parseInt(matcher.group(2));
                }
            }
            Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            process.waitFor();
            Matcher matcher = VERSION.matcher(output);
            if (!matcher.find()) {
                throw new IllegalStateException("no version in " + java + " -version: " + output);
            }
            return Integer.parseInt(matcher.group(2));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the version of " + java, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the version of " + java, e);
        }
    }
}
