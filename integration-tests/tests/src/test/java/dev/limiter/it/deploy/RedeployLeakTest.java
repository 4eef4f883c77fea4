package dev.limiter.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.Locations;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.TestApp;
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
 * No class-loader leak across redeploys: one embedded Tomcat 11 deploys the test WAR, exercises it and undeploys
 * it 30 times ({@code RedeployApp} in the tomcat11-webapp module), with the agent limiting both an {@code http:} path
 * (each cycle gets its 429) and a {@code method:} rule on the WAR's own servlet class (woven again in every new
 * loader), the rules file rewritten every cycle (a live reload) and every limiter MBean read. Every undeployed
 * web application's class loader must be collected, and Metaspace must not grow by anything like a web
 * application per cycle. The same harness without the agent is the control: it must show no leak either, so a
 * failure here is the agent's.
 */
class RedeployLeakTest {

    private static final int CYCLES = 30;
    /** A leaked web application keeps megabytes of Metaspace; the JIT and Tomcat's own caches grow by much less. */
    private static final long MAX_GROWTH_KIB_PER_CYCLE = 256;
    // measured on 17 and 25: +1.0 to +1.4 MiB with the agent over 29 cycles, +1.9 to +2.3 MiB without it
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

    @Test
    void thirtyRedeploysOnTomcat11LeaveNoClassLoaderBehind() throws Exception {
        String control = run("RedeployLeakTest-no-agent", List.of());
        assertNoLeak(control);
        String leaking = run("RedeployLeakTest-leaking", List.of("-Dredeploy.leak=true", "-Dredeploy.patience=3"));
        assertThat(leaking).as("the harness sees a leak when there is one")
                .contains("CYCLES " + CYCLES + " LOADERS LEFT " + CYCLES + " ");

        RulesFile rules = RulesFile.create("rules.yml");
        try {
            rules.write(RULES);
            String withAgent = run("RedeployLeakTest-agent", List.of("-Dlimiter.debug=true",
                    "-Dlimiter.jmx.delay=1", Agent.option(rules.path())), rules.path().toString());
            assertNoLeak(withAgent);
            // a reload may also re-weave the servlet of the loader deployed at that moment
            assertThat(count(withAgent, "woven dev.limiter.it.app.ApiServlet")).as("woven in every new loader")
                    .isGreaterThanOrEqualTo(CYCLES);
            assertThat(count(withAgent, "REJECTED 1")).as("each cycle was limited").isEqualTo(CYCLES);
            assertThat(withAgent).contains("reloaded rules");
        } finally {
            rules.delete();
        }
    }

    private static void assertNoLeak(String output) {
        Matcher result = RESULT.matcher(output);
        assertThat(result.find()).as(output).isTrue();
        assertThat(Integer.parseInt(result.group(1))).isEqualTo(CYCLES);
        assertThat(Integer.parseInt(result.group(2))).as("web application loaders still reachable").isZero();
        long growth = Long.parseLong(result.group(4)) - Long.parseLong(result.group(3));
        assertThat(growth).as("Metaspace growth after the first cycle, KiB")
                .isLessThan(MAX_GROWTH_KIB_PER_CYCLE * CYCLES);
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    private static String run(String name, List<String> jvmOptions, String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Locations.java().toString());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", TestApp.TOMCAT11_WEBAPP.classPath(), "dev.limiter.it.app.webapp.RedeployApp",
                Integer.toString(CYCLES)));
        command.addAll(List.of(arguments));
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
