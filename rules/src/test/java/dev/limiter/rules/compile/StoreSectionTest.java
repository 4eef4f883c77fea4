package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.StoreSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code store:} section and the per-rule {@code store:}: values, defaults, and what the factory is asked. */
class StoreSectionTest {

    private static final String REDIS = "store:\n  type: redis\n  uri: %s\n  timeout: %s\n"
            + "  on-failure: reject\n  key-prefix: \"app:\"\n";

    private final ManualClock clock = new ManualClock(1_000_000);
    private final RecordingFactory factory = new RecordingFactory();

    /** Records every request and hands out local limiters. */
    private static final class RecordingFactory implements LimiterFactory {
        final List<String> calls = new ArrayList<>();

        @Override
        public KeyedLimiter create(String ruleId, StoreSpec store, RateLimitStrategy strategy, LimitConfig config,
                int maxKeys, OnFull onFull) {
            calls.add(ruleId + "@" + store.type());
            return LocalKeyedLimiter.create(strategy, config, maxKeys, onFull);
        }
    }

    private RuleSet load(String store, String rules, RuleSet previous) {
        return RuleSetLoader.parse("version: 1\n" + store + "rules:\n" + rules, "rules.yml", previous, clock,
                factory);
    }

    private static String rule(String id, String extra) {
        return "  - id: " + id + "\n    match: { http: { path: /" + id + " } }\n    limit: 5\n    window: 1m\n"
                + extra;
    }

    @Test
    void withoutAStoreSectionEveryRuleIsLocal() {
        RuleSet set = load("", rule("a", ""), RuleSet.empty());

        assertThat(set.rule("a").store()).isEqualTo(StoreSpec.LOCAL);
        assertThat(set.rule("a").store().isRedis()).isFalse();
        assertThat(factory.calls).containsExactly("a@local");
    }

    @Test
    void theTopLevelRedisStoreIsEveryRulesDefaultAndARuleCanStayLocal() {
        RuleSet set = load(String.format(REDIS, "redis://user:pw@10.0.0.1:6380/2", "75ms"),
                rule("shared", "") + rule("mine", "    store: local\n") + rule("explicit", "    store: redis\n"),
                RuleSet.empty());

        StoreSpec spec = set.rule("shared").store();
        assertThat(spec).isEqualTo(new StoreSpec("redis", List.of("redis://user:pw@10.0.0.1:6380/2"), 75, "reject",
                "app:"));
        assertThat(spec.toString()).contains("redis://", "75ms", "reject");
        assertThat(set.rule("explicit").store()).isEqualTo(spec);
        assertThat(set.rule("mine").store()).isEqualTo(StoreSpec.LOCAL);
        assertThat(factory.calls).containsExactly("shared@redis", "mine@local", "explicit@redis");
    }

    @Test
    void defaultsOfTheRedisStoreAndClusterListsInBothSpellings() {
        String minimal = "store:\n  type: redis\n  uri: rediss://cache:6379\n";
        StoreSpec spec = load(minimal, rule("a", ""), RuleSet.empty()).rule("a").store();
        assertThat(spec).isEqualTo(new StoreSpec("redis", List.of("rediss://cache:6379"), 50, "local", "limiter:"));

        String commas = "store:\n  type: redis\n  uri: redis://a:7000, redis://b:7000\n";
        String list = "store:\n  type: redis\n  uri:\n    - redis://a:7000\n    - redis://b:7000\n";
        StoreSpec fromCommas = load(commas, rule("a", ""), RuleSet.empty()).rule("a").store();
        StoreSpec fromList = load(list, rule("a", ""), RuleSet.empty()).rule("a").store();
        assertThat(fromCommas.uris()).containsExactly("redis://a:7000", "redis://b:7000");
        assertThat(fromList).isEqualTo(fromCommas);
        assertThat(fromList.uriList()).isEqualTo("redis://a:7000,redis://b:7000");
    }

    @Test
    void batchIsOffByDefaultAndReadFromTheSection() {
        String minimal = "store:\n  type: redis\n  uri: redis://cache:6379\n";
        StoreSpec off = load(minimal, rule("a", ""), RuleSet.empty()).rule("a").store();
        assertThat(off.batch()).isEqualTo(1);
        assertThat(off.toString()).doesNotContain("batch");

        StoreSpec batched = load(minimal + "  batch: 20\n", rule("a", ""), RuleSet.empty()).rule("a").store();
        assertThat(batched).isEqualTo(new StoreSpec("redis", List.of("redis://cache:6379"), 50, "local",
                "limiter:", 20));
        assertThat(batched.toString()).contains("batch 20");
        assertThat(batched).isNotEqualTo(off); // a changed batch is a changed store: the agent reconnects
    }

    @Test
    void aChangedBatchGivesTheRedisRulesNewLimiters() {
        String minimal = "store:\n  type: redis\n  uri: redis://cache:6379\n";
        RuleSet first = load(minimal, rule("a", ""), RuleSet.empty());
        RuleSet batched = load(minimal + "  batch: 5\n", rule("a", ""), first);

        assertThat(batched.rule("a").limiter()).isNotSameAs(first.rule("a").limiter());
        assertThat(factory.calls).containsExactly("a@redis", "a@redis");
    }

    @Test
    void aReloadThatKeepsTheStoreKeepsTheLimiterAndAChangedStoreGetsANewOne() {
        String store = String.format(REDIS, "redis://127.0.0.1:6379", "50ms");
        RuleSet first = load(store, rule("a", "") + rule("b", "    store: local\n"), RuleSet.empty());
        RuleSet same = load(store, rule("a", "") + rule("b", "    store: local\n"), first);

        assertThat(same.rule("a").limiter()).isSameAs(first.rule("a").limiter());
        assertThat(same.rule("b").limiter()).isSameAs(first.rule("b").limiter());
        assertThat(factory.calls).containsExactly("a@redis", "b@local");

        RuleSet moved = load(String.format(REDIS, "redis://127.0.0.1:6379", "80ms"),
                rule("a", "") + rule("b", "    store: local\n"), same);
        assertThat(moved.rule("a").limiter()).isNotSameAs(first.rule("a").limiter());
        assertThat(moved.rule("b").limiter()).isSameAs(first.rule("b").limiter());

        RuleSet local = load("", rule("a", "") + rule("b", ""), moved);
        assertThat(local.rule("a").limiter()).isNotSameAs(moved.rule("a").limiter());
        assertThat(local.rule("a").store()).isEqualTo(StoreSpec.LOCAL);
        assertThat(factory.calls).containsExactly("a@redis", "b@local", "a@redis", "a@local");
    }

    @Test
    void aBadStoreOnReloadChangesNothing() {
        String store = String.format(REDIS, "redis://127.0.0.1:6379", "50ms");
        RuleSet first = load(store, rule("a", ""), RuleSet.empty());

        RulesException error = org.assertj.core.api.Assertions.catchThrowableOfType(RulesException.class,
                () -> load(String.format(REDIS, "http://127.0.0.1:6379", "50ms"), rule("a", ""), first));

        assertThat(error.getMessage()).isEqualTo(
                "rules.yml:4:8: uri 'http://127.0.0.1:6379' must start with redis:// or rediss:// (TLS)");
        assertThat(factory.calls).containsExactly("a@redis");
    }

    @Test
    void theDefaultFactoryGivesLocalLimitersEvenForRedisRules() {
        RuleSet set = RuleSetLoader.parse("version: 1\n" + String.format(REDIS, "redis://127.0.0.1:1", "50ms")
                + "rules:\n" + rule("a", ""), "rules.yml", RuleSet.empty(), clock);

        assertThat(set.rule("a").store().isRedis()).isTrue();
        assertThat(set.rule("a").limiter()).isInstanceOf(LocalKeyedLimiter.class);
    }
}
