package dev.limiter.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RejectingRuleTest {

    @Test
    void theRateLimitHeaderNamesTheRule() {
        assertThat(RejectingRule.of("\"orders-per-client\";r=0;t=1", null)).isEqualTo("orders-per-client");
    }

    @Test
    void withoutTheHeaderTheDefaultBodyNamesIt() {
        assertThat(RejectingRule.of(null, "{\"error\":\"too_many_requests\",\"rule\":\"export-per-user\","
                + "\"retry_after\":1}")).isEqualTo("export-per-user");
    }

    @Test
    void nothingNamedIsNull() {
        assertThat(RejectingRule.of("garbage", "{}")).isNull();
        assertThat(RejectingRule.of(null, null)).isNull();
    }
}
