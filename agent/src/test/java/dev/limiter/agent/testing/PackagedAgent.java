package dev.limiter.agent.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * What the tests that fork a JVM with the packaged {@code limiter.jar} need: the jar, the JVM the tests run on (17,
 * or 25 in the second pass) and the test classes' directory.
 */
public final class PackagedAgent {

    private PackagedAgent() {
    }

    /** The built {@code limiter.jar} ({@code limiter.agent.jar}, set by the build for the jar-layout tests). */
    public static String jar() {
        return new File(System.getProperty("limiter.agent.jar", "target/limiter.jar")).getAbsolutePath();
    }

    /** The {@code java} executable of the JVM running the tests. */
    public static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * A {@code strategies=} jar in {@code dir} whose strategy takes two seconds to create: the parse waits for it,
     * so whatever a program does as it starts surely comes before the rules are in.
     */
    public static Path slowStrategyJar(Path dir) throws IOException {
        Path jar = dir.resolve("slow-strategy.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        String classFile = "startwindow/SlowToLoadStrategy.class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                InputStream bytes = Files.newInputStream(Path.of(testClasses(), classFile))) {
            out.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(out);
            out.putNextEntry(new JarEntry("META-INF/services/dev.limiter.core.RateLimitStrategy"));
            out.write("startwindow.SlowToLoadStrategy\n".getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    /** The module's compiled test classes, a class path for the forked programs. */
    public static String testClasses() {
        return System.getProperty("basedir", ".") + "/target/test-classes";
    }
}
