package dev.limiter.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartGuardTest {

    @Test
    void onlyTheFirstClaimWins() {
        boolean first = StartGuard.claim();
        assertThat(first).isTrue();
        assertThat(StartGuard.claim()).isFalse();
    }
}
