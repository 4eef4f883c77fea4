package dev.limiter.agent.cli;

import java.util.List;

/** Readings for the rendering tests, with the client text a hostile key could carry. */
final class StatusSamples {

    /** A key with every kind of character a renderer must not let through: quote, backslash, CR LF, ESC, U+2028, bidi override, a lone surrogate, an emoji. */
    static final String HOSTILE_KEY = "a\"b\\c\r\nd\u001b[2Je\u2028f\u202eg\ud800h\ud83d\ude00";

    private StatusSamples() {
    }

    static LimiterStatus sample() {
        RuleStatus orders = new RuleStatus("orders", "http GET /api/orders/**", "ip", "token-bucket", 10, 1_000, 20,
                "enforce", "enforce", 120, 7, 0, 0, 3, 0, false,
                List.of(new TopKey("127.0.0.1", 5, 0), new TopKey(HOSTILE_KEY, 2, 1)));
        RuleStatus search = new RuleStatus("search", "http /search", "header:X-Api-Key", "sliding-window", 100,
                60_000, 100, "dry-run", "enforce", 40, 0, 12, 1, 2, 4, false, List.of(new TopKey("", 12, 0)));
        RuleStatus uploads = new RuleStatus("uploads", "http POST /upload", "global", "concurrency", 3, 0, 3,
                "enforce", "enforce", 9, 1, 0, 0, 1, 0, false, List.of());
        return new LimiterStatus(4242, "1.2.3", "/etc/limiter/rules.yml", true, 3, 2, 1,
                "2026-12-03T18:40:00Z", "rules.yml:7:12: limit must be positive\nrules.yml:9:3: unknown key 'foo'",
                17, 0, "pending since 2026-12-03T18:40:00Z", "", List.of(orders, search, uploads), new StoreStatus("local", "up", "", "", 0, 0, 0, 0, 0, 0, 0, 0));
    }
}
