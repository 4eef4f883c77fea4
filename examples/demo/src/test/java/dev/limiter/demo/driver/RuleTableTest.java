package dev.limiter.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.RuleSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleTableTest {

    private final RuleSet rules = BundledRules.load();

    @Test
    void limitsReadAsTheRulesFileSaysThem() {
        assertThat(RuleTable.limit(rules.rule("orders-per-client"))).isEqualTo("10/1s burst 20");
        assertThat(RuleTable.limit(rules.rule("export-per-user"))).isEqualTo("2/1s queue 3");
        assertThat(RuleTable.limit(rules.rule("reports-in-flight"))).isEqualTo("3 at once");
        assertThat(RuleTable.limit(rules.rule("user-pages"))).isEqualTo("8/2s");
    }

    @Test
    void jmxRowsFollowTheFileOrderAndMissingValuesShowAsDashes() {
        List<RuleRow> rows = List.of(new RuleRow("catalog-per-item", "fixed-window", "ENFORCE", 1234, 5, 0, 2, 5,
                1000, 5, null, List.of()), new RuleRow("api-cap-trial", "sliding-window", "DRY_RUN", 10, 0, 7, -1, -1,
                -1, -1, null, List.of()));
        List<String> lines = RuleTable.fromJmx(rules, rows).lines();
        assertThat(lines.get(0)).startsWith("rule").contains("allowed", "rejected", "would-reject", "active keys");
        assertThat(lines.get(2)).startsWith("orders-per-client").endsWith("-");
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("catalog-per-item")
                .contains("path-param:sku", "enforce", "1,234").endsWith("2"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("api-cap-trial").contains("dry-run")
                .matches(".* 7 +- +-"));
    }

    @Test
    void theLimitShownIsTheOneInForceAfterALiveReload() {
        RuleRow unchanged = new RuleRow("orders-per-client", null, null, 0, 0, 0, 0, 10, 1000, 20, null, List.of());
        RuleRow reloaded = new RuleRow("orders-per-client", null, null, 0, 0, 0, 0, 30, 2000, 30, null, List.of());
        RuleRow noCapacity = new RuleRow("orders-per-client", null, null, 0, 0, 0, 0, 10, 1000, -1, null, List.of());
        assertThat(RuleTable.limit(rules.rule("orders-per-client"), unchanged)).isEqualTo("10/1s burst 20");
        assertThat(RuleTable.limit(rules.rule("orders-per-client"), reloaded)).isEqualTo("30/2s");
        assertThat(RuleTable.limit(rules.rule("orders-per-client"), noCapacity)).isEqualTo("10/1s burst 20");
        assertThat(RuleTable.fromJmx(rules, List.of(reloaded)).lines().get(2)).contains("30/2s");
    }

    @Test
    void severalLimitsAndEachOverrideWithItsOwnCountsShowUnderTheRule() {
        RuleRow search = new RuleRow("search-per-api-key", "sliding-window", "ENFORCE", 900, 40, 0, 3, 20, 1000, 20,
                "20/1s, 300/1m", List.of(
                        "gold: keys [team-gold] -> 50/1s, 2000/1m (allowed 480, rejected 0, would-reject 0)",
                        "internal: keys [monitoring] -> unlimited (allowed 24, rejected 0, would-reject 0)"));
        List<String> lines = RuleTable.fromJmx(rules, List.of(search)).lines();
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("search-per-api-key")
                .contains("20/1s, 300/1m", "900"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("  + gold")
                .contains("keys [team-gold]", "50/1s, 2000/1m", "480"));
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("  + internal").contains("unlimited", "24"));
        assertThat(RuleTable.limit(rules.rule("search-per-api-key"))).isEqualTo("20/1s, 300/1m");
    }

    @Test
    void aRuleDeclaredInCodeShowsAfterTheFilesRulesWithItsWaitsAndWhereItIsDeclared() {
        RuleRow partner = new RuleRow("partner-rates", "token-bucket", "ENFORCE", 480, 6, 0, 1, 20, 1000, 1, "20/1s",
                List.of(), "global", "annotation dev.limiter.demo.service.PartnerRatesClient#rate", 300, 24_000);
        RuleRow orders = new RuleRow("orders-per-client", "token-bucket", "ENFORCE", 10, 0, 0, 1, 10, 1000, 20,
                "10/1s", List.of(), "ip", "rules.yml:37", 0, 0);
        List<String> lines = RuleTable.fromJmx(rules, List.of(partner, orders)).lines();
        assertThat(lines.get(0)).contains("waited");
        assertThat(lines.get(lines.size() - 1)).startsWith("partner-rates").contains("token-bucket", "global",
                "enforce", "20/1s burst 1", "480").matches(".* 300 +1");
        assertThat(RuleTable.annotationLines(rules, List.of(partner, orders))).containsExactly("partner-rates: Source"
                + " annotation dev.limiter.demo.service.PartnerRatesClient#rate (a @Limit in code, no rules-file entry);"
                + " 300 calls waited, 80.0 ms on average");
        // overridden by a rules-file rule of the same id: the file's row is the one shown
        RuleRow overridden = new RuleRow("quotes", "fixed-window", "ENFORCE", 1, 0, 0, 1, 8, 1000, 8, "8/1s",
                List.of(), "arg:0", "annotation x.Y#quote", 0, 0);
        assertThat(RuleTable.annotationLines(rules, List.of(overridden))).isEmpty();
    }

    @Test
    void observedRowsCountMatchesSuccessesAndTheRejectionsOfTheNamedRule() {
        ObservedRules observed = new ObservedRules(rules);
        observed.record("GET", "/api/orders", 200, null);
        observed.record("GET", "/api/orders", 429, "orders-per-client");
        observed.record("GET", "/rest/catalog/42", 200, null);
        observed.record("GET", "/rest/catalog/42", 429, "catalog-per-item");
        assertThat(observed.counts("orders-per-client").matched.sum()).isEqualTo(2);
        assertThat(observed.counts("orders-per-client").ok.sum()).isEqualTo(1);
        assertThat(observed.counts("orders-per-client").rejected.sum()).isEqualTo(1);
        assertThat(observed.counts("api-cap-trial").matched.sum()).isEqualTo(4);
        // a rule on code (jaxrs:, method:) is seen from outside only through the 429s that name it
        assertThat(observed.counts("catalog-per-item").matched.sum()).isZero();
        assertThat(observed.counts("catalog-per-item").rejected.sum()).isEqualTo(1);
        assertThat(observed.counts("export-per-user").matched.sum()).isZero();
    }
}
