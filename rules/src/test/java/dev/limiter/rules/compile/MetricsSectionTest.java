package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.MetricsSpec;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import org.junit.jupiter.api.Test;

/** The top-level {@code metrics:} section: the value, its default, and errors at their position. */
class MetricsSectionTest {

    private static final String RULE = "rules:\n  - id: a\n    match: { http: { path: /a } }\n    limit: 5\n"
            + "    window: 1m\n";

    private final ManualClock clock = new ManualClock(1_000_000);

    private RuleSet load(String metrics) {
        return RuleSetLoader.parse("version: 1\n" + metrics + RULE, "rules.yml", RuleSet.empty(), clock);
    }

    private String error(String metrics) {
        return catchThrowableOfType(RulesException.class, () -> load(metrics)).getMessage();
    }

    @Test
    void withoutASectionNoEndpointIsAskedFor() {
        assertThat(load("").metrics()).isEqualTo(MetricsSpec.NONE);
        assertThat(load("").metrics().prometheus()).isFalse();
    }

    @Test
    void theListenAddressInItsSpellings() {
        assertThat(load("metrics: { prometheus: { listen: '127.0.0.1:9464' } }\n").metrics())
                .isEqualTo(new MetricsSpec("127.0.0.1:9464"));
        MetricsSpec block = load("metrics:\n  prometheus:\n    listen: localhost:0\n").metrics();
        assertThat(block.prometheus()).isTrue();
        assertThat(MetricsSpec.host(block.prometheusListen())).isEqualTo("localhost");
        assertThat(MetricsSpec.port(block.prometheusListen())).isZero();
        MetricsSpec v6 = load("metrics: { prometheus: { listen: '[::1]:9464' } }\n").metrics();
        assertThat(MetricsSpec.host(v6.prometheusListen())).isEqualTo("::1");
        assertThat(MetricsSpec.port(v6.prometheusListen())).isEqualTo(9464);
    }

    @Test
    void badValuesAreReportedWhereTheyAre() {
        assertThat(error("metrics: { prometheus: { listen: '127.0.0.1' } }\n")).isEqualTo(
                "rules.yml:2:34: metrics.prometheus.listen '127.0.0.1' is not HOST:PORT (e.g. 127.0.0.1:9464)");
        assertThat(error("metrics: { prometheus: { listen: 'host:99999' } }\n")).isEqualTo(
                "rules.yml:2:34: metrics.prometheus.listen 'host:99999': the port must be from 0 to 65535");
        assertThat(error("metrics: { prometheus: { listen: '::1:9464' } }\n")).isEqualTo(
                "rules.yml:2:34: metrics.prometheus.listen '::1:9464': write an IPv6 host in brackets, e.g."
                        + " [::1]:9464");
        assertThat(error("metrics: { prometheus: { listen: 9464 } }\n"))
                .isEqualTo("rules.yml:2:34: listen must be a string (got an integer)");
        assertThat(error("metrics: { prometheus: {} }\n")).isEqualTo("rules.yml:2:24: metrics.prometheus has no"
                + " 'listen'");
        assertThat(error("metrics: { prometheus: { lisen: 'a:1' } }\n"))
                .contains("rules.yml:2:26: unknown key 'lisen' in metrics.prometheus (did you mean 'listen'?)");
        assertThat(error("metrics: { grafana: {} }\n")).startsWith("rules.yml:2:12: unknown key 'grafana' in"
                + " metrics");
    }

    @Test
    void agentArgumentSpellingIsCheckedTheSameWay() {
        assertThat(MetricsSpec.listenProblem("127.0.0.1:9464")).isNull();
        assertThat(MetricsSpec.listenProblem("0.0.0.0:0")).isNull();
        assertThat(MetricsSpec.listenProblem("")).startsWith("is empty");
        assertThat(MetricsSpec.listenProblem(":9464")).contains("is not HOST:PORT");
        assertThat(MetricsSpec.listenProblem("a b:9464")).contains("the host may hold");
        assertThat(MetricsSpec.listenProblem("host:12a")).contains("must be a number");
    }
}
