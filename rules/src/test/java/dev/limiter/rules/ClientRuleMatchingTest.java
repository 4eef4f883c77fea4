package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.KeySpec;
import org.junit.jupiter.api.Test;

/**
 * {@code http-client:} rules: matched on host glob, port, scheme, path and method of an outgoing call; keyed on
 * global, host, path or a header; {@code honor-retry-after} and its {@code max-backoff}.
 */
class ClientRuleMatchingTest {

    private static final RuleSet RULES = TestRules.parse("version: 1\nrules:\n"
            + "  - id: orders\n"
            + "    match: { http-client: { host: api.partner.com, path: '/v1/orders/**', methods: [POST] } }\n"
            + "    key: host\n    limit: 5\n    window: 1s\n    honor-retry-after: true\n"
            + "  - id: partner-any\n    match: { http-client: { host: '*.partner.com' } }\n    limit: 5\n"
            + "    window: 1s\n    honor-retry-after: true\n    max-backoff: 30s\n"
            + "  - id: tls-8443\n    match: { http-client: { host: '**.internal', port: 8443, scheme: https } }\n"
            + "    key: header:X-Tenant\n    limit: 5\n    window: 1s\n"
            + "  - id: api\n    match: { http: { path: /api/** } }\n    limit: 5\n    window: 1s\n");

    @Test
    void callsAreMatchedByHostPathAndMethod() {
        Rule[] out = new Rule[RULES.maxClientMatches()];
        assertThat(RULES.maxClientMatches()).isEqualTo(3);
        assertThat(RULES.matchClient("POST", "https", "api.partner.com", -1, "/v1/orders/42", out)).isEqualTo(2);
        assertThat(out[0].id()).isEqualTo("orders");
        assertThat(out[1].id()).isEqualTo("partner-any");
        assertThat(RULES.matchClient("GET", "https", "api.partner.com", -1, "/v1/orders/42", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("partner-any");
        assertThat(RULES.matchClient("POST", "https", "API.Partner.COM", 443, "/v1/orders/42", out))
                .as("hosts compare without case").isEqualTo(2);
        assertThat(RULES.matchClient("POST", "https", "partner.com", -1, "/v1/orders/42", out))
                .as("* is one label").isZero();
        assertThat(RULES.matchClient("GET", "http", "api.partner.com", 8080, "", out)).as("no path is /")
                .isEqualTo(1);
        assertThat(RULES.matchClient("GET", "http", null, 80, "/", out)).isZero();
    }

    @Test
    void portAndSchemeNarrowTheHost() {
        Rule[] out = new Rule[RULES.maxClientMatches()];
        assertThat(RULES.matchClient("GET", "https", "db.eu.internal", 8443, "/x", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("tls-8443");
        assertThat(RULES.matchClient("GET", "http", "db.eu.internal", 8443, "/x", out)).isZero();
        assertThat(RULES.matchClient("GET", "https", "db.eu.internal", -1, "/x", out)).as("443 by default").isZero();
        assertThat(RULES.matchClient("GET", "https", "db.eu.internal", 9443, "/x", out)).isZero();
    }

    @Test
    void clientRulesAreTheirOwnKind() {
        Rule orders = RULES.rule("orders");
        assertThat(orders.target()).isEqualTo(Rule.Target.HTTP_CLIENT);
        assertThat(orders.matchText()).isEqualTo("http-client POST api.partner.com /v1/orders/**");
        assertThat(RULES.rule("tls-8443").matchText()).isEqualTo("http-client * https://**.internal:8443");
        assertThat(orders.key()).isEqualTo(new KeySpec(KeySpec.Kind.HOST, null, -1));
        assertThat(orders.honorsRetryAfter()).isTrue();
        assertThat(orders.maxBackoffNanos()).isEqualTo(60_000_000_000L);
        assertThat(RULES.rule("partner-any").maxBackoffNanos()).isEqualTo(30_000_000_000L);
        assertThat(RULES.rule("tls-8443").honorsRetryAfter()).isFalse();
        assertThat(RULES.maxHttpMatches()).isEqualTo(1);
        assertThat(RULES.methodRules()).isEmpty();
        assertThat(RULES.rule("api").hostMatch()).isNull();
    }

    @Test
    void aHostIsNoUrl() {
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { host: 'https://api.partner.com/v1' } }\n    limit: 5\n    window: 1s\n"))
                .hasMessageContaining("rules.yml:4:35: host 'https://api.partner.com/v1' is a host name glob");
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { host: 'api.partner.com:8443' } }\n    limit: 5\n    window: 1s\n"))
                .hasMessageContaining("put the port in 'port'");
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { path: /v1/** } }\n    limit: 5\n    window: 1s\n"))
                .hasMessageContaining("host");
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { host: a.b, port: 70000 } }\n    limit: 5\n    window: 1s\n"))
                .hasMessageContaining("port must be from 1 to 65535, not 70000");
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { host: a.b } }\n    limit: 5\n    window: 1s\n"
                + "    honor-retry-after: false\n    max-backoff: 5s\n"))
                .hasMessageContaining("rules.yml:8:18: max-backoff applies only with 'honor-retry-after: true'");
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: r\n"
                + "    match: { http-client: { host: a.b } }\n    limit: 5\n    window: 1s\n"
                + "    honor-retry-after: true\n    max-backoff: 2h\n"))
                .hasMessageContaining("max-backoff must be a duration from 1ms to 1h");
    }
}
