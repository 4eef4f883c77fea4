package dev.limiter.rules.compile;

import static dev.limiter.rules.compile.MatchKindOptions.Support.NO_ATTRIBUTE;
import static dev.limiter.rules.compile.MatchKindOptions.Support.REFUSED;
import static dev.limiter.rules.compile.MatchKindOptions.Support.YES;

import dev.limiter.core.strategy.Strategies;
import dev.limiter.rules.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Which rule options apply to which match kind: one row per option (and per key kind, per condition), one column
 * per match kind plus {@code @Limit}, each cell "works" or "refused at validation". The one source of the table:
 * {@link MatchKindOptionsTest} loads a small rules file for every pair and holds the compiler to it, and holds
 * docs/rules.md ("Which options apply to which match kind") to the same cells.
 *
 * <p>Each row writes the option into a rule of each kind ({@link #variants}): a {@code §} in the text marks where
 * the refusal must be reported, where the row is refused. The {@code @Limit} column is a {@code method:} rule
 * written as an annotation: an option is an attribute there exactly when every line of the method rule that
 * states it is an annotation attribute.
 */
enum MatchKindOptions {

    KEY_GLOBAL("`key: global`", cells(YES, YES, YES, YES, YES, YES), kind -> body("key: §global")),
    KEY_IP("`key: ip`", cells(YES, YES, REFUSED, YES, REFUSED, REFUSED), kind -> body("key: §ip")),
    KEY_HEADER("`key: header:NAME`", cells(YES, YES, REFUSED, REFUSED, YES, REFUSED),
            kind -> body("key: §header:X-Api-Key")),
    KEY_PARAM("`key: param:NAME`", cells(YES, YES, REFUSED, REFUSED, REFUSED, REFUSED), kind -> body("key: §param:q")),
    KEY_PRINCIPAL("`key: principal`", cells(YES, YES, YES, REFUSED, REFUSED, YES), kind -> body("key: §principal")),
    KEY_PATH("`key: path`", cells(YES, YES, REFUSED, REFUSED, YES, REFUSED), kind -> body("key: §path")),
    KEY_PATH_PARAM("`key: path-param:NAME`", cells(YES, YES, REFUSED, REFUSED, REFUSED, REFUSED),
            kind -> body("key: §path-param:id")),
    KEY_ARG("`key: arg:N`", cells(REFUSED, YES, YES, REFUSED, REFUSED, YES), kind -> body("key: §arg:0")),
    KEY_HOST("`key: host`", cells(REFUSED, REFUSED, REFUSED, REFUSED, YES, REFUSED), kind -> body("key: §host")),
    KEY_METADATA("`key: metadata:NAME`", cells(REFUSED, REFUSED, REFUSED, YES, REFUSED, REFUSED),
            kind -> body("key: §metadata:x-api-key")),
    LIMIT_WINDOW("`limit`, `window`", cells(YES, YES, YES, YES, YES, YES), kind -> body("limit: 10\nwindow: 1s")),
    STRATEGY("`strategy` (every other built-in or custom one)", cells(YES, YES, YES, YES, YES, YES),
            kind -> strategies()),
    CAPACITY("`capacity`", cells(YES, YES, YES, YES, YES, YES), kind -> body("strategy: token-bucket\ncapacity: 20")),
    LIMITS("`limits` (several limits)", cells(YES, YES, YES, YES, YES, NO_ATTRIBUTE),
            kind -> body("limits:\n  - { limit: 10, window: 1s }\n  - { limit: 100, window: 1m }")),
    COST("`cost: N`", cells(YES, YES, YES, YES, YES, YES), kind -> body("cost: 3")),
    COST_ARG("`cost: arg:N`", cells(REFUSED, YES, YES, REFUSED, REFUSED, YES), kind -> body("cost: §arg:0")),
    MATCH_CONDITIONS("`ips`, `headers`, `principal-roles` in `match`", cells(YES, YES, REFUSED, REFUSED, REFUSED,
            NO_ATTRIBUTE), kind -> List.of(new Variant("", ", §ips: [10.0.0.0/8]", ""),
                    new Variant("", ", §headers: { X-Plan: pro }", ""),
                    new Variant("", ", §principal-roles: [ops]", ""))),
    IPS("`ips` in `unless` or an override's `when`", cells(YES, YES, REFUSED, YES, REFUSED, NO_ATTRIBUTE),
            kind -> condition("ips: §[10.0.0.0/8]")),
    HEADERS("`headers` in `unless` or an override's `when`", cells(YES, YES, REFUSED, YES, YES, NO_ATTRIBUTE),
            kind -> condition("headers: §{ X-Plan: pro }")),
    PRINCIPAL_ROLES("`principal-roles` in `unless` or an override's `when`", cells(YES, YES, YES, REFUSED, REFUSED,
            NO_ATTRIBUTE), kind -> condition("principal-roles: §[ops]")),
    OVERRIDES("`overrides` by `keys`", cells(YES, YES, YES, YES, YES, NO_ATTRIBUTE), kind -> body("key: " + keyOf(kind)
            + "\noverrides:\n  - { name: gold, keys: [k-gold], limit: 100, window: 1s }\n"
            + "  - { name: pro, keys: [k-pro], limits: [ { limit: 50, window: 1s }, { limit: 500, window: 1m } ] }\n"
            + "  - { name: internal, keys: [k-ops], unlimited: true }")),
    MODE("`mode`", cells(YES, YES, YES, YES, YES, YES), kind -> body("mode: dry-run", "mode: enforce")),
    ON_ERROR("`on-error`", cells(YES, YES, YES, YES, YES, YES), kind -> body("on-error: reject", "on-error: allow")),
    MAX_KEYS("`max-keys`", cells(YES, YES, YES, YES, YES, YES), kind -> body("max-keys: 500")),
    ON_FULL("`on-full`", cells(YES, YES, YES, YES, YES, YES),
            kind -> body("on-full: reject", "on-full: allow", "on-full: evict-oldest")),
    THROW("`throw`", cells(REFUSED, REFUSED, YES, REFUSED, REFUSED, YES), kind -> body("throw: §com.acme.Throttled")),
    STORE("`store` (`local` or `redis`)", cells(YES, YES, YES, YES, YES, NO_ATTRIBUTE), kind -> List.of(
            new Variant("", "", "store: local"), new Variant(redis(), "", "store: redis"),
            new Variant(redis(), "", "store: local"))),
    ON_LIMIT_REJECT("`on-limit: reject`", cells(YES, YES, YES, YES, YES, YES), kind -> body("on-limit: reject")),
    ON_LIMIT_WAIT("`on-limit: wait` with `max-wait`", cells(YES, YES, YES, REFUSED, YES, YES),
            kind -> body("strategy: token-bucket\non-limit: §wait\nmax-wait: 500ms" + (kind.needsMaxWaiters
                    ? "\nmax-waiters: 20" : ""))),
    MAX_WAITERS("`max-waiters` (with `on-limit: wait`)", cells(YES, YES, YES, REFUSED, YES, NO_ATTRIBUTE),
            kind -> body("strategy: token-bucket\non-limit: §wait\nmax-wait: 500ms\nmax-waiters: 20")),
    HONOR_RETRY_AFTER("`honor-retry-after`, `max-backoff`", cells(REFUSED, REFUSED, REFUSED, REFUSED, YES,
            NO_ATTRIBUTE), kind -> body("honor-retry-after: §true", "honor-retry-after: §true\nmax-backoff: 30s")),
    ADAPTIVE("`strategy: adaptive` with `algorithm`, `min-limit`, `max-limit`, `initial-limit`",
            cells(YES, YES, YES, YES, YES, NO_ATTRIBUTE), kind -> body("strategy: adaptive\nalgorithm: vegas\n"
                    + "min-limit: 2\nmax-limit: 50\ninitial-limit: 10"));

    /** Where a refusal must be reported; removed from the text before it is loaded. */
    static final char MARK = '§';

    /** The table's columns: the five match kinds and the annotation. */
    enum Kind {
        HTTP("`http`", Rule.Target.HTTP, "http: { path: '/orders/{id}'", true),
        JAXRS("`jaxrs`", Rule.Target.JAXRS, "jaxrs: { class: com.acme.OrderResource, method: create", true),
        METHOD("`method`", Rule.Target.METHOD, "method: { class: com.acme.Mailer, method: send", false),
        GRPC("`grpc`", Rule.Target.GRPC, "grpc: { service: acme.Orders, method: Create", false),
        HTTP_CLIENT("`http-client`", Rule.Target.HTTP_CLIENT, "http-client: { host: api.partner.com, path: '/v1/**'",
                false),
        ANNOTATION("`@Limit`", null, null, false);

        final String heading;
        /** The rules' target of the kind; null for {@code @Limit}, a method rule written in code. */
        final Rule.Target target;
        private final String match;
        /** True where {@code on-limit: wait} needs {@code max-waiters} too. */
        final boolean needsMaxWaiters;

        Kind(String heading, Rule.Target target, String match, boolean needsMaxWaiters) {
            this.heading = heading;
            this.target = target;
            this.match = match;
            this.needsMaxWaiters = needsMaxWaiters;
        }

        /** The {@code match:} of a rule of this kind, with {@code extra} inside its mapping. */
        String match(String extra) {
            return "match: { " + match + extra + " } }";
        }
    }

    /** What a cell says. */
    enum Support {
        /** The option works on that kind. */
        YES("yes"),
        /** Validation refuses it, at the option's line and column, with why and what to write instead. */
        REFUSED("refused"),
        /** {@code @Limit} has no attribute for it: an annotation cannot say it. */
        NO_ATTRIBUTE("–");

        final String text;

        Support(String text) {
            this.text = text;
        }
    }

    /**
     * One way of writing the option into a rule: {@code top} before {@code rules:}, {@code matchExtra} inside the
     * match's mapping, {@code body} the rule's keys after {@code match:} (without their indentation).
     */
    record Variant(String top, String matchExtra, String body) {

        /** The body with a limit and window added if it states none. */
        String fullBody() {
            boolean limited = body.lines().anyMatch(line -> line.startsWith("limit:") || line.startsWith("limits:"))
                    || body.contains("strategy: adaptive"); // it finds its own limit
            return (body.isEmpty() ? "" : body + "\n") + (limited ? "" : "limit: 10\nwindow: 1s\n");
        }

        /** The rules file of one rule {@code r} of {@code kind}, marks included. */
        String file(Kind kind) {
            StringBuilder text = new StringBuilder("version: 1\n").append(top).append("rules:\n  - id: r\n    ")
                    .append(kind.match(matchExtra)).append('\n');
            for (String line : fullBody().split("\n")) {
                text.append("    ").append(line).append('\n');
            }
            return text.toString();
        }
    }

    final String option;
    private final Support[] cells;
    private final Function<Kind, List<Variant>> variants;

    MatchKindOptions(String option, Support[] cells, Function<Kind, List<Variant>> variants) {
        if (cells.length != Kind.values().length) {
            throw new IllegalArgumentException(option + ": one cell per column");
        }
        this.option = option;
        this.cells = cells;
        this.variants = variants;
    }

    /** What the table says of this option on {@code kind}. */
    Support on(Kind kind) {
        return cells[kind.ordinal()];
    }

    /** The ways this option is written into a rule of {@code kind} ({@code @Limit}: a method rule's). */
    List<Variant> variants(Kind kind) {
        return variants.apply(kind == Kind.ANNOTATION ? Kind.METHOD : kind);
    }

    /** The table as docs/rules.md writes it: a header, the separator and one line per option. */
    static List<String> markdown() {
        List<String> lines = new ArrayList<>();
        StringBuilder header = new StringBuilder("| option |");
        StringBuilder separator = new StringBuilder("|---|");
        for (Kind kind : Kind.values()) {
            header.append(' ').append(kind.heading).append(" |");
            separator.append("---|");
        }
        lines.add(header.toString());
        lines.add(separator.toString());
        for (MatchKindOptions row : values()) {
            StringBuilder line = new StringBuilder("| ").append(row.option).append(" |");
            for (Kind kind : Kind.values()) {
                line.append(' ').append(row.on(kind).text).append(" |");
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static Support[] cells(Support http, Support jaxrs, Support method, Support grpc, Support client,
            Support annotation) {
        return new Support[] {http, jaxrs, method, grpc, client, annotation};
    }

    private static List<Variant> body(String... bodies) {
        List<Variant> variants = new ArrayList<>();
        for (String body : bodies) {
            variants.add(new Variant("", "", body));
        }
        return variants;
    }

    /** A top-level Redis store, which the rules check without connecting. */
    private static String redis() {
        return "store:\n  type: redis\n  uri: redis://cache:6379\n";
    }

    /** Every strategy the rules know, built-in or custom (the tests register one). */
    private static List<Variant> strategies() {
        List<Variant> variants = new ArrayList<>();
        for (String name : Strategies.names()) {
            if (!name.equals("adaptive")) { // a row of its own: it takes no limit
                variants.add(new Variant("", "", "strategy: " + name));
            }
        }
        return variants;
    }

    /** A condition as an exemption and as an override's {@code when}. */
    private static List<Variant> condition(String condition) {
        return body("unless:\n  - { " + condition + " }",
                "overrides:\n  - when: { " + condition + " }\n    unlimited: true");
    }

    /** A key every rule of {@code kind} can have, for overrides by key. */
    private static String keyOf(Kind kind) {
        return switch (kind) {
            case METHOD, ANNOTATION -> "arg:0";
            case GRPC -> "metadata:x-api-key";
            default -> "header:X-Api-Key";
        };
    }
}
