package dev.limiter.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.limiter.api.Limit;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.demo.service.PartnerRatesClient;
import dev.limiter.demo.service.QuoteBudgetExceededException;
import dev.limiter.rules.Mode;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.AnnotationRule;
import dev.limiter.rules.compile.RuleSetLoader;
import dev.limiter.rules.key.KeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code examples/rules.yml} from rotting: it must load with the rules module's own loader (the one the
 * agent uses), still show every strategy and key kind the file promises, and still match the demo's traffic.
 */
class BundledRulesTest {

    @Test
    void theBundledRulesFileLoads() {
        assertThatCode(BundledRules::load)
                .as("examples/rules.yml must be valid; problems: %s", problems())
                .doesNotThrowAnyException();
    }

    @Test
    void itShowsEveryBuiltInStrategy() {
        Set<String> strategies = new HashSet<>();
        for (Rule rule : BundledRules.load().rules()) {
            strategies.add(rule.strategyName());
        }
        assertThat(strategies).contains("fixed-window", "token-bucket", "sliding-window", "leaky-bucket",
                "concurrency");
    }

    @Test
    void itShowsEveryRequestKeyKindAndADryRun() {
        Set<KeySpec.Kind> kinds = new HashSet<>();
        int dryRuns = 0;
        for (Rule rule : BundledRules.load().rules()) {
            kinds.add(rule.key().kind());
            dryRuns += rule.mode() == Mode.DRY_RUN ? 1 : 0;
        }
        assertThat(kinds).contains(KeySpec.Kind.GLOBAL, KeySpec.Kind.IP, KeySpec.Kind.HEADER, KeySpec.Kind.PARAM,
                KeySpec.Kind.PATH_PARAM, KeySpec.Kind.PATH, KeySpec.Kind.ARG);
        assertThat(dryRuns).isEqualTo(1);
    }

    @Test
    void everyRuleMeetsSomeOfTheDemoTrafficAndEveryClientMeetsAnEnforcedRule() {
        RuleSet rules = BundledRules.load();
        Set<String> met = new HashSet<>();
        for (Scenario scenario : Scenarios.all()) {
            String path = scenario.requests().apply(0).matchPath();
            boolean enforced = path.equals("/api/convert") && partnerClientWaits(); // its limit is in code
            for (Rule rule : rulesMetBy(rules, path)) {
                met.add(rule.id());
                enforced |= rule.mode() == Mode.ENFORCE;
            }
            assertThat(enforced).as("%s (%s) meets an enforced rule", scenario.label(), path).isTrue();
        }
        Set<String> all = new HashSet<>();
        for (Rule rule : rules.rules()) {
            all.add(rule.id());
        }
        assertThat(met).as("rules the demo's traffic exercises").isEqualTo(all);
    }

    /**
     * The rules one demo request meets: the HTTP rules of its path, plus the rules on the code it runs, which
     * the agent finds by class and method name (the JAX-RS resource behind /rest/catalog, the quote that
     * /api/orders computes), and the outgoing call /api/shipping makes.
     */
    private static List<Rule> rulesMetBy(RuleSet rules, String path) {
        List<Rule> met = new ArrayList<>();
        Rule[] matched = new Rule[rules.maxHttpMatches()];
        int count = rules.matchHttp("GET", path, matched);
        met.addAll(Arrays.asList(matched).subList(0, count));
        Rule[] code = new Rule[rules.rules().size()];
        if (path.startsWith("/rest/catalog/")) {
            count = rules.matchJaxrs("dev.limiter.demo.service.CatalogResource", "item", code);
            met.addAll(Arrays.asList(code).subList(0, count));
        }
        if (path.equals("/api/shipping")) { // the partner call the endpoint makes (any port of this machine)
            count = rules.matchClient("GET", "http", "127.0.0.1", -1, "/partner/shipping", code);
            met.addAll(Arrays.asList(code).subList(0, count));
        }
        if (path.equals("/api/orders")) {
            count = rules.matchMethod("dev.limiter.demo.service.PriceCalculator", "quote", code);
            met.addAll(Arrays.asList(code).subList(0, count));
        }
        return met;
    }

    /** The partner client's {@code @Limit}: a rule declared in code, which waits instead of rejecting. */
    private static boolean partnerClientWaits() {
        try {
            Limit limit = PartnerRatesClient.class.getMethod("rate", String.class).getAnnotation(Limit.class);
            return limit != null && limit.id().equals(PartnerRatesClient.RULE) && limit.onLimit().equals("wait")
                    && limit.mode().isEmpty();
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Test
    void thePartnerClientsAnnotationCompilesAsAWaitingRuleWithTheRulesOwnCode() {
        Limit limit = rateAnnotation();
        assertThat(limit).isNotNull();
        assertThat(partnerClientWaits()).isTrue();
        AnnotationRule compiled = AnnotationRule.compile(PartnerRatesClient.class.getName(), "rate",
                Map.of("id", limit.id(), "limit", limit.limit(), "window", limit.window(), "strategy",
                        limit.strategy(), "capacity", limit.capacity(), "onLimit", limit.onLimit(), "maxWait",
                        limit.maxWait()), SystemClock.INSTANCE);
        assertThat(compiled.problems()).isEmpty();
        assertThat(compiled.rule().policy().waits()).isTrue();
        assertThat(compiled.rule().policy().maxWaitNanos()).isEqualTo(250_000_000L);
    }

    private static Limit rateAnnotation() {
        try {
            return PartnerRatesClient.class.getMethod("rate", String.class).getAnnotation(Limit.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theDriverTrustsTheProxyItPlaysSoTheSpooferIsOneClient() {
        RuleSet rules = BundledRules.load();
        assertThat(rules.clientIp().isTrusted("127.0.0.1")).isTrue();
        String first = rules.clientIp().resolve("127.0.0.1", "198.51.100.1, 203.0.113.30", null);
        String second = rules.clientIp().resolve("127.0.0.1", "198.51.100.2, 203.0.113.30", null);
        assertThat(first).isEqualTo("203.0.113.30").isEqualTo(second);
    }

    @Test
    void theMethodRuleThrowsTheDemosOwnExceptionWhichTheOrdersEndpointCatches() {
        Rule quotes = BundledRules.load().rule("quotes");
        assertThat(quotes.target()).isEqualTo(Rule.Target.METHOD);
        assertThat(quotes.matches("dev.limiter.demo.service.PriceCalculator", "quote")).isTrue();
        assertThat(quotes.throwClass()).isEqualTo(QuoteBudgetExceededException.class.getName());
    }

    private static String problems() {
        try {
            RuleSetLoader.load(BundledRules.file(), RuleSet.empty());
            return "none";
        } catch (RulesException e) {
            return e.getMessage();
        }
    }
}
