package dev.limiter.bench.overload;

import java.util.List;

/**
 * One way of protecting the server, run in its own forked JVM: no protection, a rule of ours (the agent on the
 * command line with these rules), or Netflix's filter in front of the servlet.
 */
record Contender(String name, String rules, boolean netflix) {

    static final String ADAPTIVE = "adaptive (defaults)";

    /** The comparison the manual reports, in the order of its table. */
    static List<Contender> all() {
        return List.of(
                new Contender("no limiter", null, false),
                concurrency(8),
                concurrency(32),
                concurrency(128),
                new Contender(ADAPTIVE, rule("strategy: adaptive"), false),
                new Contender("netflix filter (defaults)", null, true));
    }

    static Contender byName(String name) {
        return all().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no contender " + name));
    }

    boolean usesAgent() {
        return rules != null;
    }

    private static Contender concurrency(int limit) {
        return new Contender("concurrency " + limit, rule("strategy: concurrency\n    limit: " + limit), false);
    }

    private static String rule(String limit) {
        return "version: 1\nrules:\n  - id: work\n    match: { http: { path: /work } }\n    " + limit + "\n";
    }
}
