package dev.limiter.agent.testing;

import java.io.File;

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

    /** The module's compiled test classes, a class path for the forked programs. */
    public static String testClasses() {
        return System.getProperty("basedir", ".") + "/target/test-classes";
    }
}
