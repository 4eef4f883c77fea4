package dev.limiter.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test program run in a forked JVM with the packaged agent and a rules file: its class path is the test classes
 * and the jars of the libraries named by one of their classes each; it must exit 0 within two minutes.
 *
 * @param out what it printed on standard output
 * @param err what it printed on standard error (the agent's log)
 */
public record ForkedProgram(String out, String err) {

    /** Runs {@code main} with {@code args}, the agent reading {@code rules} (written to {@code dir}). */
    public static ForkedProgram run(Path dir, String rules, List<String> libraryClasses, String main,
            List<String> args) throws Exception {
        List<Path> jars = new ArrayList<>();
        for (String type : libraryClasses) {
            jars.add(Path.of(Class.forName(type).getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        return runWith(dir, rules, jars, main, args);
    }

    /** {@link #run}, the libraries being {@code jars} rather than the test class path's. */
    public static ForkedProgram runWith(Path dir, String rules, List<Path> jars, String main, List<String> args)
            throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules);
        List<String> classPath = new ArrayList<>(List.of(PackagedAgent.testClasses()));
        for (Path jar : jars) {
            classPath.add(jar.toString());
        }
        List<String> command = new ArrayList<>(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar()
                + "=rules=" + file, "-cp", String.join(File.pathSeparator, classPath), main));
        command.addAll(args);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        ForkedProgram run = new ForkedProgram(Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        assertThat(process.exitValue()).as(run.out() + run.err()).isZero();
        return run;
    }

    /**
     * The jars of the test class path whose path matches the regular expression {@code pattern} (a library and what
     * it depends on, by the folders of their Maven groups), for {@link #runWith}.
     */
    public static List<Path> testJars(String pattern) throws Exception {
        List<Path> jars = new ArrayList<>();
        Enumeration<URL> manifests = ForkedProgram.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
        while (manifests.hasMoreElements()) {
            URL manifest = manifests.nextElement();
            if ("jar".equals(manifest.getProtocol())) {
                Path jar = Path.of(((JarURLConnection) manifest.openConnection()).getJarFileURL().toURI());
                if (jar.toString().replace('\\', '/').matches(pattern)) {
                    jars.add(jar);
                }
            }
        }
        return jars;
    }

    /** The line the program printed for scenario {@code name} ({@code name: ...}), or "". */
    public String line(String name) {
        return out.lines().filter(line -> line.startsWith(name + ":")).findFirst().orElse("");
    }

    /**
     * Scenario {@code name} of a client program: a first call answered 429 with {@code Retry-After: 1}, the next
     * rejected with what is left of that second, one after the pause answered 200; two calls reached the server.
     */
    public void assertPausedByRetryAfter(String name) {
        assertThat(line(name)).as(err).contains("first=429", "after=200", "hits=2");
        assertThat(number(name, "retryAfter")).as("what is left of Retry-After: 1").isBetween(800L, 1_000L);
    }

    /** Scenario {@code name}: two calls at once under {@code concurrency} 2, twice; the permits came back. */
    public void assertInFlightGivenBack(String name) {
        assertThat(line(name)).as("2 at once, given back with their responses")
                .isEqualTo(name + ": first=2 second=2 rejected=0");
    }

    /** The number after {@code key=} in scenario {@code name}'s line. */
    public long number(String name, String key) {
        return Long.parseLong(line(name).replaceAll(".*\\b" + key + "=(-?\\d+).*", "$1"));
    }
}
