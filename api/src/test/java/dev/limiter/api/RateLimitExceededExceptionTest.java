package dev.limiter.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimitExceededExceptionTest {

    @Test
    void carriesRuleAndRetryAfterRoundedUpToWholeSeconds() {
        RateLimitExceededException e = new RateLimitExceededException("api", 1001);
        assertThat(e.ruleId()).isEqualTo("api");
        assertThat(e.retryAfterMillis()).isEqualTo(1001);
        assertThat(e.retryAfterSeconds()).isEqualTo(2);
        assertThat(e.getMessage()).contains("api").contains("2s");
        assertThat(e.getStackTrace()).isEmpty();
    }

    @Test
    void retryAfterIsAtLeastOneSecond() {
        RateLimitExceededException e = new RateLimitExceededException("api", 0);
        assertThat(e.retryAfterMillis()).isEqualTo(1);
        assertThat(e.retryAfterSeconds()).isEqualTo(1);
    }
}
