package dev.limiter.bench;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the agent pays per HTTP request to find its rules: {@link RuleSet#matchHttp} of one path against
 * {@value #RULES} rules compiled from a generated YAML file through {@link RuleSetLoader}, as in production.
 * One path hits exactly one deep rule in the middle of the file, the other matches nothing (most requests of a
 * service with few limited endpoints); both must stay flat however many rules there are, and allocation-free.
 */
@State(Scope.Benchmark)
public class RuleMatchBenchmark extends BenchmarkDefaults {

    static final int RULES = 1_000;

    /** Matches rule {@code api-500} only. */
    static final String HIT_PATH = "/api/v3/tenants/acme/resource500/items/42";

    /** Matches no rule: shares the {@code /api} prefix, then diverges. */
    static final String MISS_PATH = "/api/v3/tenants/acme/unknown/items/42";

    private RuleSet rules;
    private String hitPath;
    private String missPath;

    @Setup
    public void setUp() {
        rules = RuleSetLoader.parse(RulesYaml.generate(RULES), "bench-rules.yml", RuleSet.empty(), null);
        hitPath = new String(HIT_PATH.toCharArray());
        missPath = new String(MISS_PATH.toCharArray());
    }

    @Benchmark
    public int matchHttpHit(MatchOut thread) {
        return rules.matchHttp("GET", hitPath, thread.matched);
    }

    @Benchmark
    public int matchHttpMiss(MatchOut thread) {
        return rules.matchHttp("GET", missPath, thread.matched);
    }

    RuleSet rules() {
        return rules;
    }

    /** The per-thread output array the agent sizes once per rule set. */
    @State(Scope.Thread)
    public static class MatchOut {

        Rule[] matched;

        @Setup
        public void setUp(RuleMatchBenchmark benchmark) {
            matched = new Rule[Math.max(1, benchmark.rules().maxHttpMatches())];
        }
    }
}
