package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.OnFull;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.ResponseSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The example rules file (every kind of match and key) parses into the rules it describes and matches as described. */
class ExampleRulesTest {

    private static RuleSet rules;

    @BeforeAll
    static void load() throws Exception {
        rules = RuleSetLoader.load(Path.of(ExampleRulesTest.class.getResource("/example.yml").toURI()),
                RuleSet.empty());
    }

    @Test
    void readsEveryRuleWithItsSettings() {
        assertThat(rules.rules()).extracting(Rule::id)
                .containsExactly("api-per-ip", "create-order", "mailer", "reports");
        assertThat(rules.watch()).isTrue();

        Rule api = rules.rule("api-per-ip");
        assertThat(api.target()).isEqualTo(Rule.Target.HTTP);
        assertThat(api.key()).isEqualTo(new KeySpec(KeySpec.Kind.IP, null, -1));
        assertThat(api.strategyName()).isEqualTo("token-bucket");
        assertThat(api.limiter().config().limit()).isEqualTo(100);
        assertThat(api.limiter().config().windowMillis()).isEqualTo(1000);
        assertThat(api.limiter().config().capacity()).isEqualTo(200);
        assertThat(api.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(api.onError()).isEqualTo(OnError.ALLOW);
        assertThat(api.maxKeys()).isEqualTo(100_000);
        assertThat(api.matchText()).isEqualTo("http GET,POST /api/**");
        assertThat(api.policyHeader()).isEqualTo("\"api-per-ip\";q=100;w=1");

        Rule order = rules.rule("create-order");
        assertThat(order.target()).isEqualTo(Rule.Target.JAXRS);
        assertThat(order.key().kind()).isEqualTo(KeySpec.Kind.PRINCIPAL);
        assertThat(order.strategyName()).isEqualTo("fixed-window");
        assertThat(order.limiter().config().windowMillis()).isEqualTo(60_000);
        assertThat(order.throwClass()).isEqualTo(Rule.DEFAULT_THROW);

        Rule mailer = rules.rule("mailer");
        assertThat(mailer.target()).isEqualTo(Rule.Target.METHOD);
        assertThat(mailer.key()).isEqualTo(new KeySpec(KeySpec.Kind.ARG, null, 0));
        assertThat(mailer.throwClass()).isEqualTo("com.acme.mail.ThrottledException");

        Rule reports = rules.rule("reports");
        assertThat(reports.strategyName()).isEqualTo("concurrency");
        assertThat(reports.limiter().strategy().releasesOnExit()).isTrue();
        assertThat(reports.key()).isEqualTo(KeySpec.GLOBAL);
        assertThat(reports.policyHeader()).isEqualTo("\"reports\";q=4");
    }

    @Test
    void theDocumentedPerRuleOptionsExampleReadsAsItsCommentsSay() throws Exception {
        Path example = Path.of(ExampleRulesTest.class.getResource("/per-rule-options.yml").toURI());
        // docs/rules.md shows this very file: an edit of one without the other fails here
        assertThat(Files.readString(Path.of("..", "docs", "rules.md"))).contains(Files.readString(example));
        RuleSet options = RuleSetLoader.load(example, RuleSet.empty());

        Rule partner = options.rule("partner-api");
        assertThat(partner.key()).isEqualTo(new KeySpec(KeySpec.Kind.HEADER, "X-Api-Key", -1));
        assertThat(partner.strategyName()).isEqualTo("sliding-window");
        assertThat(partner.onError()).isEqualTo(OnError.REJECT);
        assertThat(partner.maxKeys()).isEqualTo(5_000);
        assertThat(partner.store().isRedis()).isTrue();

        Rule search = options.rule("search-per-term");
        assertThat(search.key()).isEqualTo(new KeySpec(KeySpec.Kind.PARAM, "q", -1));
        assertThat(search.maxKeys()).isEqualTo(20_000);
        assertThat(search.onError()).isEqualTo(OnError.ALLOW);
        assertThat(((LocalKeyedLimiter) search.limiter()).onFull()).isEqualTo(OnFull.ALLOW);
        assertThat(((LocalKeyedLimiter) partner.limiter()).onFull()).isEqualTo(RulesCompiler.DEFAULT_ON_FULL);
        assertThat(search.store()).isEqualTo(StoreSpec.LOCAL);

        Rule downloads = options.rule("downloads-per-file");
        assertThat(downloads.key()).isEqualTo(new KeySpec(KeySpec.Kind.PATH, null, -1));
        assertThat(downloads.limiter().config().capacity()).isEqualTo(100);
        assertThat(downloads.maxKeys()).isEqualTo(RulesCompiler.DEFAULT_MAX_KEYS);
        assertThat(downloads.store()).isEqualTo(StoreSpec.LOCAL);
    }

    @Test
    void matchesHttpByMethodAndPath() {
        Rule[] out = new Rule[rules.maxHttpMatches()];
        assertThat(rules.matchHttp("GET", "/api/users/1", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("api-per-ip");
        assertThat(rules.matchHttp("POST", "/api", out)).isEqualTo(1);
        assertThat(rules.matchHttp("DELETE", "/api/users/1", out)).isZero();
        assertThat(rules.matchHttp("DELETE", "/reports/q3", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("reports");
        assertThat(rules.matchHttp("GET", "/apiary", out)).isZero();
        assertThat(rules.matchHttp("GET", "/", out)).isZero();
    }

    @Test
    void matchesJaxrsAndPlainMethodsByName() {
        Rule[] out = new Rule[4];
        assertThat(rules.matchJaxrs("com.acme.shop.OrderResource", "create", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("create-order");
        assertThat(rules.matchJaxrs("com.acme.shop.OrderResource", "list", out)).isZero();
        assertThat(rules.matchMethod("com.acme.mail.SmtpMailer", "sendWelcome", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("mailer");
        assertThat(rules.matchMethod("com.acme.mail.smtp.SmtpMailer", "send", out)).isZero();
        assertThat(rules.matchMethod("com.acme.mail.SmtpMailer", "receive", out)).isZero();
        assertThat(rules.methodRules()).extracting(Rule::id).containsExactly("mailer");
        assertThat(rules.jaxrsRules()).extracting(Rule::id).containsExactly("create-order");
    }

    @Test
    void rendersTheRejection() {
        ResponseSpec response = rules.response();
        assertThat(response.status()).isEqualTo(429);
        assertThat(response.contentType()).isEqualTo("application/json");
        assertThat(response.headerStyle()).isEqualTo(HeaderStyle.DRAFT);
        assertThat(response.renderBody("api-per-ip", 7))
                .isEqualTo("{\"error\":\"too_many_requests\",\"rule\":\"api-per-ip\",\"retry_after\":7}");
        assertThat(rules.clientIp().trustedProxies()).containsExactly("127.0.0.1/32", "10.0.0.0/8");
    }
}
