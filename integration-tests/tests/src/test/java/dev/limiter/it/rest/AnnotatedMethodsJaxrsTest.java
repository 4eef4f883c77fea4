package dev.limiter.it.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.WindowGuard;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @Limit} in a real server (Jersey 4 on Tomcat 11, the jaxrs-jakarta application's
 * {@code AnnotatedResource}), started with the agent and no rules file at all, attached over JMX as JConsole
 * would be: exact admissions and the rejection's rule id and retry-after, a class-level annotation, a bad
 * annotation logged and left unlimited, a rules file that appears and overrides an annotation by id, a reload
 * that gives the annotation back, and the rules' {@code Source}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnnotatedMethodsJaxrsTest {

    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern REJECTION = Pattern.compile(
            "rejected by (\\S+) class=RateLimitExceededException retryAfterMs=(\\d+)");
    private static final String MAILER = "dev.limiter.it.jaxrs.AnnotatedMailer#send";

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;

    @BeforeAll
    void startServerWithoutRulesFile() {
        rules = RulesFile.create("rules.yml"); // not written: the server starts without a rules file
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.JERSEY4_TOMCAT11, getClass().getSimpleName() + "-server",
                List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
    }

    @AfterAll
    void stopServer() {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void theStartUpLineSaysAnnotationsOnly() {
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml \\(no such file: running with @Limit"
                + " annotations only until it appears\\)", Duration.ofSeconds(10));
        assertThat(server.output()).doesNotContain("invalid rules");
    }

    @Test
    void anAnnotatedMethodAdmitsExactlyItsLimitPerKeyAndThrowsTheRulesException() {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofSeconds(20));
        for (int i = 0; i < 2; i++) {
            assertOk(http.get("/rest/annotated/send?to=a"), "sent to a");
        }
        assertRejected(http.get("/rest/annotated/send?to=a"), "annotated-send");
        assertOk(http.get("/rest/annotated/send?to=b"), "sent to b");
    }

    @Test
    void aClassLevelAnnotationLimitsItsPublicMethodUnderTheDefaultId() {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofSeconds(20));
        for (int i = 0; i < 3; i++) {
            assertOk(http.get("/rest/annotated/daily"), "daily report");
        }
        assertRejected(http.get("/rest/annotated/daily"), "dev.limiter.it.jaxrs.AnnotatedReports.daily");
    }

    @Test
    void aBadAnnotationIsLoggedOnceAndItsMethodRunsUnlimited() {
        for (int i = 0; i < 5; i++) {
            assertOk(http.get("/rest/annotated/bad"), "sent anyway");
        }
        server.awaitOutput("limiter: bad @Limit on dev\\.limiter\\.it\\.jaxrs\\.BadlyAnnotated#send: window: window"
                + " '5 minutes' is not a duration", Duration.ofSeconds(10));
        assertThat(server.output().split("bad @Limit on dev.limiter.it.jaxrs.BadlyAnnotated", -1)).hasSize(2);
    }

    @Test
    void aRulesFileThatAppearsOverridesTheAnnotationByIdAndAReloadWithoutTheRuleGivesItBack() throws Exception {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofSeconds(30));
        ObjectName name = new ObjectName("dev.limiter:type=Rule,name=annotated-send");
        assertOk(http.get("/rest/annotated/send?to=o1"), "sent to o1");
        awaitLimit(name, 2);
        assertThat(mbeans.getAttribute(name, "Source")).isEqualTo("annotation " + MAILER);

        rules.write("""
                version: 1
                rules:
                  - id: annotated-send
                    match: { method: { class: dev.limiter.it.jaxrs.AnnotatedMailer, method: send } }
                    key: arg:0
                    limit: 4
                    window: 1h
                """);
        awaitLimit(name, 4);
        assertThat(mbeans.getAttribute(name, "Source")).isEqualTo("rules.yml:3 (overrides annotation " + MAILER
                + ")");
        for (int i = 0; i < 4; i++) {
            assertOk(http.get("/rest/annotated/send?to=o2"), "sent to o2");
        }
        assertRejected(http.get("/rest/annotated/send?to=o2"), "annotated-send");

        rules.write("version: 1\nrules: []\n");
        awaitLimit(name, 2);
        assertThat(mbeans.getAttribute(name, "Source")).isEqualTo("annotation " + MAILER);
        for (int i = 0; i < 2; i++) {
            assertOk(http.get("/rest/annotated/send?to=o3"), "sent to o3");
        }
        assertRejected(http.get("/rest/annotated/send?to=o3"), "annotated-send");
    }

    private void awaitLimit(ObjectName name, long limit) {
        await("rule " + name + " with limit " + limit).atMost(RELOAD_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(name) && Long.valueOf(limit).equals(mbeans.getAttribute(name,
                        "Limit")));
    }

    private static void assertOk(HttpResponse<String> response, String body) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body);
    }

    private static void assertRejected(HttpResponse<String> response, String ruleId) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        Matcher matcher = REJECTION.matcher(response.body());
        assertThat(matcher.matches()).as(response.body()).isTrue();
        assertThat(matcher.group(1)).isEqualTo(ruleId);
        assertThat(Long.parseLong(matcher.group(2))).isBetween(1L, 3_600_000L);
    }
}
