package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a rule keeps of a long key: a fixed-size digest that still tells keys apart. */
class KeyBoundTest {

    @Test
    void keysUpToTheBoundAreKeptAsTheyAre() {
        String atBound = "k".repeat(KeyBound.MAX_CHARS);
        assertThat(KeyBound.bound(atBound)).isSameAs(atBound);
        assertThat(KeyBound.bound("")).isEmpty();
        assertThat(KeyBound.bound(null)).isNull();
    }

    @Test
    void aLongerKeyBecomesItsPrefixAndDigestOfOneFixedLength() {
        for (int length : new int[] {KeyBound.MAX_CHARS + 1, 1000, 64 * 1024, 2 * 1024 * 1024}) {
            String key = "a".repeat(length);
            String bounded = KeyBound.bound(key);
            assertThat(bounded).as("length %d", length).hasSize(KeyBound.DIGEST_FORM_LENGTH)
                    .startsWith("a".repeat(KeyBound.KEPT_PREFIX) + "~sha256:")
                    .matches("a{64}~sha256:[A-Za-z0-9_-]{43}");
        }
    }

    @Test
    void theDigestFormIsAFunctionOfTheWholeKey() {
        String base = "Bearer eyJhbGciOiJIUzI1NiJ9." + "x".repeat(2000);
        Set<String> forms = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            // same prefix, same length: only a character near the end differs, as in tokens of one issuer
            String key = base + (char) ('A' + i % 26) + (i / 26);
            String bounded = KeyBound.bound(key);
            assertThat(KeyBound.bound(new String(key.toCharArray()))).as("an equal key, another instance")
                    .isEqualTo(bounded);
            forms.add(bounded);
        }
        assertThat(forms).hasSize(200);
        // code units, not a charset encoding: lone surrogates and their replacement character stay apart
        String padding = "s".repeat(KeyBound.MAX_CHARS);
        assertThat(KeyBound.bound(padding + "\ud800")).isNotEqualTo(KeyBound.bound(padding + "\ufffd"))
                .isNotEqualTo(KeyBound.bound(padding + "?"));
    }

    @Test
    void theSameLongKeyAsTheThreadsPreviousOneIsNotHashedAgain() {
        String key = "t".repeat(4096);
        String first = KeyBound.bound(key);
        assertThat(KeyBound.bound(key)).isSameAs(first);
        assertThat(KeyBound.bound("u".repeat(4096))).isNotEqualTo(first);
    }
}
