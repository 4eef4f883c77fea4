package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A key shown to a person is one line of visible text that still tells keys apart. */
class PrintableKeyTest {

    @Test
    void aPlainKeyIsReturnedAsItIs() {
        for (String key : new String[] {"", "203.0.113.7", "2001:db8::/64", "user@example.com", "ÄÖü ñ 日本 😀"}) {
            assertThat(PrintableKey.of(key)).isSameAs(key);
        }
        assertThat(PrintableKey.of(null)).isNull();
    }

    @Test
    void controlCharactersSeparatorsBidiOverridesAndBackslashesAreEscaped() {
        String[][] cases = {
            {"\r\n", "\\u000d\\u000a"},
            {"\u0000", "\\u0000"},
            {"\u001b[2J", "\\u001b[2J"},
            {"\t", "\\u0009"},
            {"\u007f\u0085\u009b", "\\u007f\\u0085\\u009b"},
            {"\u2028\u2029", "\\u2028\\u2029"},
            {"\u202e\u2066\u200f", "\\u202e\\u2066\\u200f"},
            {"\\", "\\\\"},
        };
        for (String[] c : cases) {
            assertThat(PrintableKey.of("a" + c[0] + "b")).as(c[1]).isEqualTo("a" + c[1] + "b");
        }
    }

    @Test
    void loneSurrogatesAreEscapedAndPairsKept() {
        assertThat(PrintableKey.of("x\ud800y")).isEqualTo("x\\ud800y");
        assertThat(PrintableKey.of("x\udc00")).isEqualTo("x\\udc00");
        assertThat(PrintableKey.of("\ud83d\ude00")).isEqualTo("\ud83d\ude00");
    }

    @Test
    void distinctKeysStayDistinct() {
        // a backslash escape and the character it stands for must not print alike
        List<String> keys = List.of("\n", "\\u000a", "\\n", "\\\\u000a", "\\", "\\\\", "\u0000", "\\u0000");
        Set<String> printed = new HashSet<>();
        for (String key : keys) {
            String text = PrintableKey.of(key);
            assertThat(text).doesNotContainPattern("[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]");
            printed.add(text);
        }
        assertThat(printed).hasSameSizeAs(keys);
    }
}
