package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Policy;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code on-limit: wait}, {@code max-wait} and {@code max-waiters}: what compiles, and everything refused, with its
 * place.
 */
class WaitRulesTest {

    private final ManualClock clock = new ManualClock(1_000_000);

    private RuleSet load(String top, String rule) {
        return RuleSetLoader.parse("version: 1\n" + top + "rules:\n  - id: r\n" + rule, "rules.yml", null, clock);
    }

    private static String method(String extra) {
        return "    match: { method: { class: com.acme.Mailer, method: send } }\n    limit: 10\n    window: 1s\n"
                + extra;
    }

    /** The one error of loading {@code rule}, as {@code line:column message}. */
    private String error(String top, String rule) {
        RulesException e = catchThrowableOfType(() -> load(top, rule), RulesException.class);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.errors()).hasSize(1);
        RulesError error = e.errors().get(0);
        return error.line() + ":" + error.column() + " " + error.message();
    }

    @Test
    void aMethodRuleOnATokenOrLeakyBucketWaitsUpToMaxWait() {
        Policy token = load("", method("    strategy: token-bucket\n    on-limit: wait\n    max-wait: 250ms\n"))
                .rule("r").policy();
        assertThat(token.waits()).isTrue();
        assertThat(token.maxWaitNanos()).isEqualTo(250_000_000L);
        Policy leaky = load("", method("    strategy: leaky-bucket\n    on-limit: wait\n    max-wait: 1m\n"))
                .rule("r").policy();
        assertThat(leaky.maxWaitNanos()).isEqualTo(60_000_000_000L);
    }

    @Test
    void rejectIsTheDefaultAndCanBeSpelledOut() {
        assertThat(load("", method("    strategy: token-bucket\n")).rule("r").policy().waits()).isFalse();
        Policy reject = load("", method("    strategy: token-bucket\n    on-limit: reject\n")).rule("r").policy();
        assertThat(reject.waits()).isFalse();
        assertThat(reject.maxWaitNanos()).isZero();
    }

    @Test
    void maxWaitWithoutWaitAndWaitWithoutMaxWaitAreRefused() {
        assertThat(error("", method("    strategy: token-bucket\n    max-wait: 1s\n")))
                .isEqualTo("8:15 max-wait applies only with 'on-limit: wait'");
        assertThat(error("", method("    strategy: token-bucket\n    on-limit: reject\n    max-wait: 1s\n")))
                .isEqualTo("9:15 max-wait applies only with 'on-limit: wait'");
        assertThat(error("", method("    strategy: token-bucket\n    on-limit: wait\n"))).startsWith(
                "8:15 on-limit: wait needs 'max-wait'");
        assertThat(error("", method("    strategy: token-bucket\n    on-limit: queue\n"))).startsWith(
                "8:15 on-limit must be one of reject, wait, not 'queue'");
    }

    @Test
    void maxWaitMustBeFromOneMillisecondToOneMinute() {
        for (String bad : new String[] {"0ms", "61s", "2m", "soon"}) {
            assertThat(error("", method("    strategy: token-bucket\n    on-limit: wait\n    max-wait: " + bad
                    + "\n"))).isEqualTo("9:15 max-wait must be a duration from 1ms to 1m (e.g. '500ms', '2s'), not '"
                    + bad + "'");
        }
    }

    @Test
    void httpAndJaxrsRulesWaitOnlyWithABoundOnWaitingRequests() {
        String http = "    match: { http: { path: /a } }\n    limit: 10\n    window: 1s\n    strategy: token-bucket\n"
                + "    on-limit: wait\n    max-wait: 1s\n";
        assertThat(error("", http)).isEqualTo("8:15 on-limit: wait on an http: rule needs 'max-waiters' (e.g."
                + " 'max-waiters: 20'): each waiting request holds a server thread, and beyond that many a request is"
                + " rejected at once");
        Policy waiting = load("", http + "    max-waiters: 20\n").rule("r").policy();
        assertThat(waiting.waits()).isTrue();
        assertThat(waiting.maxWaiters()).isEqualTo(20);
        String jaxrs = "    match: { jaxrs: { class: com.acme.Api, method: get } }\n    limit: 10\n    window: 1s\n"
                + "    strategy: token-bucket\n    on-limit: wait\n    max-wait: 1s\n";
        assertThat(error("", jaxrs)).startsWith("8:15 on-limit: wait on a jaxrs: rule needs 'max-waiters'");
        assertThat(load("", jaxrs + "    max-waiters: 1\n").rule("r").policy().maxWaiters()).isEqualTo(1);
        for (String bad : new String[] {"0", "100001", "-3"}) {
            assertThat(error("", http + "    max-waiters: " + bad + "\n")).isEqualTo("10:18 max-waiters must be from 1"
                    + " to 100000, not " + bad);
        }
        assertThat(error("", http + "    max-waiters: lots\n")).startsWith("10:18 max-waiters");
    }

    @Test
    void grpcRulesNeverWait() {
        String grpc = "    match: { grpc: { service: acme.Orders, method: Create } }\n    limit: 10\n    window: 1s\n"
                + "    strategy: token-bucket\n    on-limit: wait\n    max-wait: 1s\n";
        String refusal = "8:15 on-limit: wait does not apply to a grpc rule: the agent decides a gRPC call as"
                + " grpc-java starts it and never parks that thread, so no call would wait; write 'on-limit: reject'"
                + " (the client gets RESOURCE_EXHAUSTED and retry-after), or give a token-bucket a larger capacity for"
                + " bursts";
        assertThat(error("", grpc)).isEqualTo(refusal);
        assertThat(error("", grpc + "    max-waiters: 5\n")).as("one reason, where the choice is").isEqualTo(refusal);
        assertThat(error("", grpc.replace("    max-wait: 1s\n", ""))).isEqualTo(refusal);
        assertThat(load("", grpc.replace("wait\n    max-wait: 1s", "reject")).rule("r").policy().waits()).isFalse();
    }

    @Test
    void methodRulesMayBoundTheirWaitersAndOnlyAWaitingRuleHasWaiters() {
        assertThat(load("", method("    strategy: token-bucket\n    on-limit: wait\n    max-wait: 1s\n")).rule("r")
                .policy().maxWaiters()).as("unbounded: the caller's own thread waits").isZero();
        assertThat(load("", method("    strategy: token-bucket\n    on-limit: wait\n    max-wait: 1s\n"
                + "    max-waiters: 3\n")).rule("r").policy().maxWaiters()).isEqualTo(3);
        assertThat(error("", method("    strategy: token-bucket\n    max-waiters: 3\n")))
                .isEqualTo("8:18 max-waiters applies only with 'on-limit: wait'");
    }

    @Test
    void strategiesThatCannotReserveAreRefused() {
        assertThat(error("", method("    strategy: sliding-window\n    on-limit: wait\n    max-wait: 1s\n")))
                .isEqualTo("8:15 on-limit: wait needs a strategy that knows exactly when the next permit comes"
                        + " (token-bucket, leaky-bucket, fixed-window or sliding-log), not 'sliding-window'");
        String concurrency = "    match: { method: { class: com.acme.Mailer, method: send } }\n    limit: 10\n"
                + "    strategy: concurrency\n    on-limit: wait\n    max-wait: 1s\n";
        assertThat(error("", concurrency)).startsWith("7:15 on-limit: wait needs a strategy that knows exactly");
    }

    @Test
    void aFixedWindowWaitsForTheNextWindowWithRoom() {
        Policy fixed = load("", method("    strategy: fixed-window\n    on-limit: wait\n    max-wait: 2s\n"))
                .rule("r").policy();
        assertThat(fixed.waits()).isTrue();
        assertThat(fixed.maxWaitNanos()).isEqualTo(2_000_000_000L);
    }

    @Test
    void severalLimitsAreRefused() {
        String several = "    match: { method: { class: com.acme.Mailer, method: send } }\n    strategy: token-bucket\n"
                + "    limits:\n      - { limit: 10, window: 1s }\n      - { limit: 100, window: 1m }\n"
                + "    on-limit: wait\n    max-wait: 1s\n";
        assertThat(error("", several)).isEqualTo("9:15 on-limit: wait takes one limit: a wait for several limits at"
                + " once is not supported yet");
    }

    @Test
    void aRedisStoreIsRefusedWithWhy() {
        String store = "store:\n  type: redis\n  uri: redis://cache:6379\n";
        assertThat(error(store, method("    strategy: token-bucket\n    on-limit: wait\n    max-wait: 1s\n")))
                .isEqualTo("11:15 on-limit: wait needs 'store: local': a wait needs the exact time of its reservation,"
                        + " which the shared Redis scripts do not return yet");
        assertThat(load(store, method("    strategy: token-bucket\n    store: local\n    on-limit: wait\n"
                + "    max-wait: 1s\n")).rule("r").policy().waits()).isTrue();
    }

    @Test
    void annotationsTakeOnLimitAndMaxWaitThroughTheSameValidation() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("limit", 5L);
        values.put("window", "1s");
        values.put("strategy", "token-bucket");
        values.put("onLimit", "wait");
        values.put("maxWait", "300ms");
        AnnotationRule waiting = AnnotationRule.compile("com.acme.Mailer", "send", values, clock);
        assertThat(waiting.problems()).isEmpty();
        assertThat(waiting.rule().policy().maxWaitNanos()).isEqualTo(300_000_000L);
        values.put("strategy", "sliding-window");
        assertThat(AnnotationRule.compile("com.acme.Mailer", "send", values, clock).problems()).containsExactly(
                "onLimit: on-limit: wait needs a strategy that knows exactly when the next permit comes (token-bucket,"
                        + " leaky-bucket, fixed-window or sliding-log), not 'sliding-window'");
        values.put("strategy", "token-bucket");
        values.remove("onLimit");
        assertThat(AnnotationRule.compile("com.acme.Mailer", "send", values, clock).problems()).containsExactly(
                "maxWait: max-wait applies only with 'on-limit: wait'");
    }
}
