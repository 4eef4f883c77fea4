package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A key paused until a time: the pause in force, its end, the longer of two, and the bound. */
class KeyPausesTest {

    @Test
    void aPauseLastsUntilItsEndAndIsThenForgotten() {
        KeyPauses pauses = new KeyPauses();
        assertThat(pauses.nanosLeft("a", 0)).isZero();
        assertThat(pauses.pause("a", 1_000, 0)).isTrue();
        assertThat(pauses.nanosLeft("a", 400)).isEqualTo(600);
        assertThat(pauses.nanosLeft("b", 400)).isZero();
        assertThat(pauses.nanosLeft("a", 1_000)).isZero();
        assertThat(pauses.size()).as("an ended pause is removed by its check").isZero();
    }

    @Test
    void aShorterPauseNeverShortensOneInForce() {
        KeyPauses pauses = new KeyPauses();
        pauses.pause("a", 5_000, 0);
        pauses.pause("a", 2_000, 0);
        assertThat(pauses.nanosLeft("a", 0)).isEqualTo(5_000);
        pauses.pause("a", 9_000, 0);
        assertThat(pauses.nanosLeft("a", 0)).isEqualTo(9_000);
    }

    @Test
    void endsCompareAcrossTheNanoTimeWrap() {
        KeyPauses pauses = new KeyPauses();
        long now = Long.MAX_VALUE - 10;
        pauses.pause("a", now + 100, now); // wraps to a negative value
        assertThat(pauses.nanosLeft("a", now)).isEqualTo(100);
    }

    @Test
    void theBoardIsBoundedAndSweepsEndedPauses() {
        KeyPauses pauses = new KeyPauses();
        for (int i = 0; i < KeyPauses.MAX_KEYS; i++) {
            assertThat(pauses.pause("k" + i, i < 10 ? 50 : 1_000, 0)).isTrue();
        }
        assertThat(pauses.pause("new", 1_000, 0)).as("full of pauses in force").isFalse();
        assertThat(pauses.refused()).isEqualTo(1);
        assertThat(pauses.pause("k5", 2_000, 0)).as("a key paused already is always extended").isTrue();
        assertThat(pauses.pause("new", 1_000, 100)).as("ten pauses have ended: swept").isTrue();
        assertThat(pauses.size()).as("nine swept (k5 was extended), one added").isEqualTo(KeyPauses.MAX_KEYS - 8);
    }
}
