package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * The MBeans as a console sees them: through the platform MBean server, by attribute and operation name only,
 * against a real {@link RuleSetHolder} on a temporary rules file, with requests driven through the bridge and
 * the real {@link ServletLimiter} (fake servlet requests). Time is a {@link ManualClock}, so no window ends
 * during a test.
 */
class JmxRegistrarTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: api
                match: { http: { path: /api/**, methods: [GET] } }
                key: ip
                limit: 2
                window: 1m
                strategy: fixed-window
              - id: search
                match: { http: { path: /search } }
                limit: 1
                window: 1h
              - id: old
                match: { http: { path: /old } }
                limit: 5
                window: 1s
            """;

    private static final ObjectName LIMITER = ObjectNames.limiter();
    private static final ObjectName API = ObjectNames.rule("api");
    private static final ObjectName SEARCH = ObjectNames.rule("search");
    private static final ObjectName OLD = ObjectNames.rule("old");

    @TempDir
    Path dir;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private Path file;
    private RuleSetHolder holder;
    private JmxRegistrar registrar;

    @BeforeEach
    void setUp() throws Exception {
        file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        LimiterBridge.install(new ServletLimiter(holder, new ThrottledLog("dev.limiter.test", 0)));
        registrar = JmxRegistrar.register(server, holder);
    }

    @AfterEach
    void tearDown() {
        if (registrar != null) {
            registrar.close();
        }
        LimiterBridge.install(null);
        LimiterBridge.setEnabled(true);
        holder.close();
    }

    private Object attr(ObjectName name, String attribute) throws Exception {
        return server.getAttribute(name, attribute);
    }

    private Object invoke(ObjectName name, String operation, Object... args) throws Exception {
        String[] signature = new String[args.length];
        java.util.Arrays.fill(signature, String.class.getName());
        return server.invoke(name, operation, args, signature);
    }

    /** One GET through the bridge as woven code makes it; true if the limiter rejected it. */
    private static boolean get(String path, String ip) {
        FakeHttp http = new FakeHttp("jakarta.servlet", path);
        http.remoteAddr = ip;
        try {
            return LimiterBridge.servletEnter(http.request, http.response);
        } finally {
            LimiterBridge.servletExit();
        }
    }

    private static int rejections(String path, String ip, int requests) {
        int rejected = 0;
        for (int i = 0; i < requests; i++) {
            if (get(path, ip)) {
                rejected++;
            }
        }
        return rejected;
    }

    private void rewrite(String yaml) throws Exception {
        Files.writeString(file, yaml);
    }

    @Test
    void theLimiterMBeanDescribesTheRulesInForce() throws Exception {
        assertThat(attr(LIMITER, "RulesFile")).isEqualTo(file.toAbsolutePath().toString());
        assertThat(attr(LIMITER, "RuleCount")).isEqualTo(3);
        assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(0L);
        assertThat(attr(LIMITER, "FailedReloadCount")).isEqualTo(0L);
        assertThat(attr(LIMITER, "LastReloadError")).isEqualTo("");
        assertThat(Instant.parse((String) attr(LIMITER, "LastReloadTime")))
                .isBetween(Instant.now().minusSeconds(60), Instant.now());
        assertThat(attr(LIMITER, "Enabled")).isEqualTo(true);
        assertThat((String) attr(LIMITER, "Version")).isNotBlank();
        int woven = (Integer) attr(LIMITER, "WovenTypes");
        assertThat(woven).isEqualTo(Diagnostics.wovenClasses());
        Diagnostics.WOVEN_LISTENER.accept("jmxtest.WovenForTheCount"); // what the transformer reports per class
        assertThat(attr(LIMITER, "WovenTypes")).as("every class the transformer reports").isEqualTo(woven + 1);
        assertThat(server.queryNames(ObjectNames.allRules(), null)).containsExactlyInAnyOrder(API, SEARCH, OLD);
        assertThat(server.isInstanceOf(LIMITER, "javax.management.NotificationBroadcaster")).isTrue();
    }

    @Test
    void ruleAttributesShowTheLimitsAndCountWhatTheRequestsGot() throws Exception {
        assertThat(attr(API, "Id")).isEqualTo("api");
        assertThat(attr(API, "Limit")).isEqualTo(2L);
        assertThat(attr(API, "WindowMillis")).isEqualTo(60_000L);
        assertThat(attr(API, "Capacity")).isEqualTo(2L);
        assertThat(attr(API, "Strategy")).isEqualTo("fixed-window");
        assertThat(attr(API, "Key")).isEqualTo("ip");
        assertThat(attr(API, "Match")).isEqualTo("http GET /api/**");
        assertThat(attr(API, "Mode")).isEqualTo("enforce");
        assertThat(attr(API, "FileMode")).isEqualTo("enforce");
        assertThat(attr(API, "NeverMatched")).isEqualTo(true);

        assertThat(rejections("/api/a", "10.0.0.1", 5)).isEqualTo(3);
        assertThat(rejections("/api/a", "10.0.0.2", 1)).isZero();
        assertThat(attr(API, "Allowed")).isEqualTo(3L);
        assertThat(attr(API, "Rejected")).isEqualTo(3L);
        assertThat(attr(API, "WouldReject")).isEqualTo(0L);
        assertThat(attr(API, "Errors")).isEqualTo(0L);
        assertThat(attr(API, "ActiveKeys")).isEqualTo(2);
        assertThat(attr(SEARCH, "Allowed")).as("other rules are not touched").isEqualTo(0L);
        assertThat(attr(API, "NeverMatched")).isEqualTo(false);
        assertThat(attr(SEARCH, "NeverMatched")).isEqualTo(true);

        for (javax.management.MBeanOperationInfo operation : server.getMBeanInfo(API).getOperations()) {
            if (operation.getSignature().length > 0) {
                assertThat(operation.getSignature()).as(operation.getName()).extracting("name").containsExactly("key");
            }
        }
        assertThat(server.getMBeanInfo(API).getAttributes()).as("an MXBean: open types only")
                .allSatisfy(a -> assertThat(a.getDescriptor().getFieldValue("openType")).isNotNull());
        assertThat(invoke(API, "remaining", "10.0.0.1")).isEqualTo(0L);
        assertThat(invoke(API, "remaining", "10.0.0.2")).isEqualTo(1L);
        invoke(API, "resetKey", "10.0.0.1");
        assertThat(invoke(API, "remaining", "10.0.0.1")).isEqualTo(2L);
        assertThat(invoke(API, "remaining", "10.0.0.2")).as("only that key is reset").isEqualTo(1L);
        assertThat(attr(API, "Rejected")).as("resetKey keeps the counters").isEqualTo(3L);

        invoke(API, "reset");
        assertThat(attr(API, "Allowed")).isEqualTo(0L);
        assertThat(attr(API, "Rejected")).isEqualTo(0L);
        assertThat(attr(API, "ActiveKeys")).isEqualTo(0);
        assertThat((CompositeData[]) attr(API, "TopRejectedKeys")).isEmpty();
        assertThat(rejections("/api/a", "10.0.0.2", 2)).as("every key has a full budget again").isZero();
    }

    /** Reloads over JMX a file whose only rule is {@code api}: one permit a minute per IP, plus {@code extra}. */
    private void reloadOnlyApi(String extra) throws Exception {
        rewrite("""
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    key: ip
                    limit: 1
                    window: 1m
                """ + extra.indent(4));
        assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ");
    }

    @Test
    void keysRefusedCountsNewKeysTurnedAwayWhileEverySlotHoldsLiveStateAndResetZeroesIt() throws Exception {
        reloadOnlyApi("max-keys: 2");
        assertThat(rejections("/api/a", "10.0.0.1", 2)).isEqualTo(1);
        assertThat(rejections("/api/a", "10.0.0.2", 1)).isZero();
        for (int i = 0; i < 20; i++) {
            assertThat(get("/api/a", "192.0.2." + i)).as("a new key, every slot live: refused").isTrue();
        }
        assertThat(rejections("/api/a", "10.0.0.1", 1)).as("still throttled").isEqualTo(1);
        assertThat(attr(API, "KeysRefused")).isEqualTo(20L);
        assertThat(attr(API, "KeysAdmittedWithoutState")).isEqualTo(0L);
        assertThat(attr(API, "Rejected")).isEqualTo(22L);
        assertThat(attr(API, "ActiveKeys")).isEqualTo(2);

        invoke(API, "reset");
        assertThat(attr(API, "KeysRefused")).isEqualTo(0L);
    }

    @Test
    void keysAdmittedWithoutStateCountsNewKeysLetThroughUnderOnFullAllow() throws Exception {
        reloadOnlyApi("max-keys: 1\non-full: allow");
        assertThat(rejections("/api/a", "10.0.0.1", 2)).isEqualTo(1);
        assertThat(rejections("/api/a", "10.0.0.2", 3)).as("admitted without state").isZero();
        assertThat(attr(API, "KeysAdmittedWithoutState")).isEqualTo(3L);
        assertThat(attr(API, "KeysRefused")).isEqualTo(0L);
        assertThat(attr(API, "Allowed")).isEqualTo(4L);
    }

    @Test
    void theKillSwitchLetsEverythingThroughUntilItIsReleased() throws Exception {
        assertThat(rejections("/search", "10.0.0.1", 2)).isEqualTo(1);

        server.setAttribute(LIMITER, new Attribute("Enabled", false));
        assertThat(LimiterBridge.isEnabled()).isFalse();
        assertThat(rejections("/search", "10.0.0.1", 5)).isZero();
        assertThat(attr(SEARCH, "Allowed")).as("nothing is checked while disabled").isEqualTo(1L);

        server.setAttribute(LIMITER, new Attribute("Enabled", true));
        assertThat(attr(LIMITER, "Enabled")).isEqualTo(true);
        assertThat(rejections("/search", "10.0.0.1", 2)).isEqualTo(2);
    }

    @Test
    void modeSwitchesToDryRunAndBackAndRefusesNonsense() throws Exception {
        assertThat(rejections("/search", "10.0.0.1", 2)).isEqualTo(1);

        server.setAttribute(SEARCH, new Attribute("Mode", "dry-run"));
        assertThat(attr(SEARCH, "Mode")).isEqualTo("dry-run");
        assertThat(attr(SEARCH, "FileMode")).isEqualTo("enforce");
        assertThat(rejections("/search", "10.0.0.1", 3)).isZero();
        assertThat(attr(SEARCH, "WouldReject")).isEqualTo(3L);
        assertThat(attr(SEARCH, "Rejected")).isEqualTo(1L);

        assertThatThrownBy(() -> server.setAttribute(SEARCH, new Attribute("Mode", "relaxed")))
                .isInstanceOf(RuntimeMBeanException.class)
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasStackTraceContaining("enforce, dry-run or file");
        assertThat(attr(SEARCH, "Mode")).isEqualTo("dry-run");

        server.setAttribute(SEARCH, new Attribute("Mode", "file"));
        assertThat(attr(SEARCH, "Mode")).isEqualTo("enforce");
        assertThat(rejections("/search", "10.0.0.1", 1)).isEqualTo(1);
        server.setAttribute(SEARCH, new Attribute("Mode", "DRY_RUN"));
        assertThat(attr(SEARCH, "Mode")).isEqualTo("dry-run");
        server.setAttribute(SEARCH, new Attribute("Mode", "enforce"));
        assertThat(attr(SEARCH, "Mode")).isEqualTo("enforce");
    }

    @Test
    void reloadThroughJmxAddsAndRemovesRuleMBeansAndSurvivorsKeepTheirCounters() throws Exception {
        assertThat(rejections("/search", "10.0.0.1", 3)).isEqualTo(2);
        server.setAttribute(SEARCH, new Attribute("Mode", "dry-run"));
        rewrite("""
                version: 1
                rules:
                  - id: search
                    match: { http: { path: /search } }
                    limit: 10
                    window: 1h
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 2
                    window: 1m
                    strategy: token-bucket
                  - id: "new.rule_1"
                    match: { http: { path: /new } }
                    limit: 1
                    window: 1h
                """);

        String outcome = (String) invoke(LIMITER, "reload");

        assertThat(outcome).startsWith("reloaded ").contains("3 rules in force");
        assertThat(server.queryNames(ObjectNames.allRules(), null))
                .containsExactlyInAnyOrder(SEARCH, API, ObjectNames.rule("new.rule_1"));
        assertThat(server.isRegistered(OLD)).isFalse();
        assertThat(attr(SEARCH, "Limit")).as("the new limit").isEqualTo(10L);
        assertThat(attr(SEARCH, "Allowed")).as("kept across the reload").isEqualTo(1L);
        assertThat(attr(SEARCH, "Rejected")).as("kept across the reload").isEqualTo(2L);
        assertThat(attr(SEARCH, "Mode")).as("the override survives an unchanged mode:").isEqualTo("dry-run");
        assertThat(attr(API, "Strategy")).as("a new strategy is a new limiter").isEqualTo("token-bucket");
        assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(1L);
        assertThat(attr(LIMITER, "RuleCount")).isEqualTo(3);
    }

    @Test
    void aBrokenFileIsReportedAndTheRulesInForceKeepWorking() throws Exception {
        rewrite(RULES.replace("limit: 5", "limit: -5"));

        String validation = (String) invoke(LIMITER, "validate");
        assertThat(validation).startsWith("invalid: ").contains("rules.yml:15:12: limit");
        assertThat(attr(LIMITER, "FailedReloadCount")).as("validate applies nothing").isEqualTo(0L);

        String outcome = (String) invoke(LIMITER, "reload");

        assertThat(outcome).startsWith("not reloaded, the 3 rules in force stay:").contains("rules.yml:15:12: limit");
        assertThat((String) attr(LIMITER, "LastReloadError")).contains("rules.yml:15:12: limit");
        assertThat(attr(LIMITER, "FailedReloadCount")).isEqualTo(1L);
        assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(0L);
        assertThat(server.queryNames(ObjectNames.allRules(), null)).containsExactlyInAnyOrder(API, SEARCH, OLD);
        assertThat(rejections("/search", "10.0.0.1", 2)).as("the old rules still limit").isEqualTo(1);

        rewrite(RULES);
        assertThat((String) invoke(LIMITER, "validate")).startsWith("valid: ").endsWith("3 rules");
        assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ");
        assertThat(attr(LIMITER, "LastReloadError")).isEqualTo("");
    }

    @Test
    void everyReloadIsAnnouncedWithANotification() throws Exception {
        List<Notification> received = new CopyOnWriteArrayList<>();
        NotificationListener listener = (notification, handback) -> received.add(notification);
        server.addNotificationListener(LIMITER, listener, null, null);
        try {
            holder.reload(); // as the file watcher does: not only JMX reloads are announced
            rewrite("rules: [");
            invoke(LIMITER, "reload");

            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
            Notification success = received.get(0);
            assertThat(success.getType()).isEqualTo(LimiterMXBean.NOTIFICATION_RELOADED);
            assertThat(success.getSource()).isEqualTo(LIMITER);
            assertThat(success.getMessage()).contains("3 rules in force");
            Notification failure = received.get(1);
            assertThat(failure.getType()).isEqualTo(LimiterMXBean.NOTIFICATION_RELOAD_FAILED);
            assertThat(failure.getMessage()).contains("the 3 rules in force stay");
            assertThat((String) failure.getUserData()).startsWith("rules.yml:");
            assertThat(failure.getSequenceNumber()).isGreaterThan(success.getSequenceNumber());
        } finally {
            server.removeNotificationListener(LIMITER, listener);
        }
        assertThat(server.getMBeanInfo(LIMITER).getNotifications()[0].getNotifTypes())
                .containsExactly(LimiterMXBean.NOTIFICATION_RELOADED, LimiterMXBean.NOTIFICATION_RELOAD_FAILED);
    }

    @Test
    void topRejectedKeysNameWhoIsThrottledMostFirst() throws Exception {
        rejections("/api/a", "10.0.0.7", 9);   // 7 rejected
        rejections("/api/a", "10.0.0.8", 4);   // 2 rejected
        rejections("/api/a", "10.0.0.9", 2);   // none
        server.setAttribute(API, new Attribute("Mode", "dry-run"));
        rejections("/api/a", "10.0.0.8", 1);   // would reject: counted too

        CompositeData[] top = (CompositeData[]) attr(API, "TopRejectedKeys");

        assertThat(top).hasSize(2);
        assertThat(top[0].get("key")).isEqualTo("10.0.0.7");
        assertThat(top[0].get("count")).isEqualTo(7L);
        assertThat(top[0].get("error")).isEqualTo(0L);
        assertThat(top[1].get("key")).isEqualTo("10.0.0.8");
        assertThat(top[1].get("count")).isEqualTo(3L);
        assertThat(attr(API, "TopRejectedKeysDropped")).isEqualTo(0L);
    }

    @Test
    void aRuleWhoseNameIsTakenIsSkippedAndRegisteredOnALaterReload() throws Exception {
        ObjectName taken = ObjectNames.rule("taken");
        server.registerMBean(new RuleControl(holder, "squatter"), taken);
        try {
            rewrite(RULES + """
                      - id: taken
                        match: { http: { path: /taken } }
                        limit: 1
                        window: 1h
                      - id: free
                        match: { http: { path: /free } }
                        limit: 1
                        window: 1h
                    """);
            assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ");
            assertThat(server.isRegistered(ObjectNames.rule("free"))).as("the other new rule").isTrue();
            assertThat(attr(taken, "Id")).as("the squatter stays").isEqualTo("squatter");
        } finally {
            server.unregisterMBean(taken);
        }
        invoke(LIMITER, "reload");
        assertThat(attr(taken, "Id")).isEqualTo("taken");
        assertThat(attr(taken, "Limit")).isEqualTo(1L);
    }

    @Test
    void closeUnregistersEverything() throws Exception {
        registrar.close();
        registrar = null;
        assertThat(server.isRegistered(LIMITER)).isFalse();
        assertThat(server.queryNames(ObjectNames.allRules(), null)).isEmpty();
        holder.reload();
        assertThat(server.queryNames(ObjectNames.allRules(), null)).as("no longer follows reloads").isEmpty();
    }

    @Test
    void aSecondLimiterInTheSameServerIsRefused() {
        assertThatThrownBy(() -> JmxRegistrar.register(server, holder))
                .isInstanceOf(javax.management.InstanceAlreadyExistsException.class);
    }
}
