package dev.limiter.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.Locations;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.TestApp;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No class-loader leak across redeploys: one embedded Tomcat 11, then one embedded Jetty 12, deploys the test WAR,
 * exercises it and undeploys it 30 times ({@code RedeployCycles}, app-support), with the agent limiting both an
 * {@code http:} path (each cycle gets its 429) and a {@code method:} rule on the WAR's own servlet class (woven
 * again in every new loader), the rules file rewritten every cycle (a live reload) and every limiter MBean read.
 * The same harness without the agent is the control, and a run that keeps every loader on purpose proves the
 * harness sees a leak. With the agent, as without it, no web application loader may stay reachable, and Metaspace
 * must not grow by anything like a web application per cycle.
 */
class RedeployLeakTest {

    private static final int CYCLES = 30;
    /** A leaked web application keeps megabytes of Metaspace; the JIT and the containers' caches grow by less. */
    private static final long MAX_GROWTH_KIB_PER_CYCLE = 256;
    // measured on 17 and 25: Tomcat +0.9 to +1.4 MiB with the agent over 29 cycles, +1.9 to +2.3 MiB without it
    private static final Pattern RESULT =
            Pattern.compile("CYCLES (\\d+) LOADERS LEFT (\\d+) METASPACE (\\d+) (\\d+) KiB");

    private static final String RULES = """
            version: 1
            rules:
              - id: items
                match: { http: { path: /api/items/** } }
                key: ip
                limit: 3
                window: 1h
              - id: api-method
                match: { method: { class: dev.limiter.it.app.ApiServlet, method: doGet } }
                limit: 100000
                window: 1h
            """;

    /** The WAR both containers deploy, and the app-support jar in it (the Tomcat launcher adds it). */
    private static final Path WEBAPP =
            Path.of(TestApp.TOMCAT11_WEBAPP.classPath().split(File.pathSeparator)[0]).resolveSibling("webapp");

    @Test
    void thirtyRedeploysOnTomcat11LeaveNoClassLoaderBehind() throws Exception {
        String classPath = TestApp.TOMCAT11_WEBAPP.classPath() + File.pathSeparator + supportJar();
        check("Tomcat11", List.of("-cp", classPath, "dev.limiter.it.app.webapp.RedeployApp",
                Integer.toString(CYCLES)));
    }

    @Test
    void thirtyRedeploysOnJetty12LeaveNoClassLoaderBehind() throws Exception {
        check("Jetty12", List.of("-cp", TestApp.JETTY12_JAKARTA.classPath(),
                "dev.limiter.it.app.jetty12.JettyRedeployApp", Integer.toString(CYCLES), WEBAPP.toString()));
    }

    private void check(String container, List<String> launch) throws Exception {
        String control = run("RedeployLeakTest-" + container + "-no-agent", List.of("-Dredeploy.patience=20"), launch);
        assertThat(loadersLeft(control)).as("the container alone").isZero();
        String leaking = run("RedeployLeakTest-" + container + "-leaking",
                List.of("-Dredeploy.leak=true", "-Dredeploy.patience=3"), launch);
        assertThat(loadersLeft(leaking)).as("the harness sees a leak when there is one").isEqualTo(CYCLES);

        RulesFile rules = RulesFile.create("rules.yml");
        try {
            rules.write(RULES);
            List<String> withRules = new ArrayList<>(launch);
            withRules.add(rules.path().toString());
            String withAgent = run("RedeployLeakTest-" + container + "-agent", List.of("-Dlimiter.debug=true",
                    "-Dlimiter.jmx.delay=1", "-Dredeploy.patience=20", Agent.option(rules.path())), withRules);
            assertThat(loadersLeft(withAgent)).as("web application loaders still reachable with the agent").isZero();
            assertMetaspaceFlat(withAgent);
            // a reload may also re-weave the servlet of the loader deployed at that moment
            assertThat(count(withAgent, "woven dev.limiter.it.app.ApiServlet")).as("woven in every new loader")
                    .isGreaterThanOrEqualTo(CYCLES);
            assertThat(count(withAgent, "REJECTED 1")).as("each cycle was limited").isEqualTo(CYCLES);
            assertThat(withAgent).contains("reloaded rules");
        } finally {
            rules.delete();
        }
    }

    private static int loadersLeft(String output) {
        Matcher result = RESULT.matcher(output);
        assertThat(result.find()).as(output).isTrue();
        assertThat(Integer.parseInt(result.group(1))).isEqualTo(CYCLES);
        return Integer.parseInt(result.group(2));
    }

    private static void assertMetaspaceFlat(String output) {
        Matcher result = RESULT.matcher(output);
        assertThat(result.find()).as(output).isTrue();
        long growth = Long.parseLong(result.group(4)) - Long.parseLong(result.group(3));
        assertThat(growth).as("Metaspace growth after the first cycle, KiB")
                .isLessThan(MAX_GROWTH_KIB_PER_CYCLE * CYCLES);
    }

    private static String supportJar() throws Exception {
        try (var jars = Files.list(WEBAPP.resolve("WEB-INF/lib"))) {
            return jars.filter(jar -> jar.getFileName().toString().startsWith("limiter-it-app-support-"))
                    .findFirst().orElseThrow().toString();
        }
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private static String run(String name, List<String> jvmOptions, List<String> launch) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Locations.java().toString());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(launch);
        Files.createDirectories(Locations.logs());
        Path log = Locations.logs().resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).as(name + " finished").isTrue();
        } finally {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
