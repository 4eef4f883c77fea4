package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatusScreenTest {

    private static String screen(LimiterStatus status) {
        return String.join("\n", StatusScreen.lines(status));
    }

    @Test
    void showsTheHeaderTheReloadWithItsErrorsAndOneRowPerRuleInOrder() {
        List<String> lines = StatusScreen.lines(StatusSamples.sample());
        assertThat(lines.get(0)).isEqualTo("limiter 1.2.3 in pid 4242: enabled");
        assertThat(lines.get(1)).isEqualTo("rules:   3 rules in force from /etc/limiter/rules.yml");
        assertThat(lines.get(2)).isEqualTo("reloads: 2 ok, 1 failed; last load 2026-12-03T18:40:00Z FAILED, the rules in force stay:");
        assertThat(lines.get(3)).isEqualTo("         rules.yml:7:12: limit must be positive");
        assertThat(lines.get(4)).isEqualTo("         rules.yml:9:3: unknown key 'foo'");
        assertThat(lines.get(5)).isEqualTo("methods: re-weaving loaded classes for the new method rules, pending since"
                + " 2026-12-03T18:40:00Z: calls of those methods are not checked yet");
        assertThat(lines.get(6)).isEqualTo("store:   local (this JVM's memory)");
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("rule ")).findFirst().orElseThrow());
        assertThat(lines.get(header)).matches("rule +match +key +strategy +limit +mode +allowed +rejected +would-reject +active keys");
        assertThat(lines.get(header + 1)).matches(
                "orders +http GET /api/orders/\\*\\* +ip +token-bucket +10/1s burst 20 +enforce +120 +7 +0 +3");
        assertThat(lines.get(header + 2)).matches(
                "search +http /search +header:X-Api-Key +sliding-window +100/1m +dry-run \\(file: enforce\\) +40 +0 +12 +2");
        assertThat(lines.get(header + 3)).matches(
                "uploads +http POST /upload +global +concurrency +3 at once +enforce +9 +1 +0 +1");
    }

    @Test
    void columnsLineUp() {
        List<String> lines = StatusScreen.lines(StatusSamples.sample());
        List<String> table = lines.stream().filter(l -> l.matches("(rule|orders|search|uploads) .*")).toList();
        assertThat(table).hasSize(4);
        int end = table.get(0).length();
        assertThat(table).allSatisfy(line -> assertThat(line).hasSize(end));
    }

    @Test
    void notesRuleErrorsRefusedKeysAndListsTheTopKeys() {
        String screen = screen(StatusSamples.sample());
        assertThat(screen).contains("  search: 1 error inside the limiter, decided by on-error");
        assertThat(screen).contains("  search: 4 requests of new keys refused");
        assertThat(screen).contains("keys rejected most (dry-run: would have been), most first:");
        assertThat(screen).contains("  orders:  127.0.0.1 5  ");
        assertThat(screen).contains("  search:  (no key) 12");
        assertThat(screen).doesNotContain("uploads:");
    }

    @Test
    void clientTextCannotDriveTheTerminal() {
        String screen = screen(StatusSamples.sample());
        String line = screen.lines().filter(l -> l.startsWith("  orders:")).findFirst().orElseThrow();
        assertThat(line).contains("a\"b\\c\\u000d\\u000ad\\u001b[2Je\\u2028f\\u202eg\\ud800h\ud83d\ude00 2 (±1)");
        for (char c : screen.toCharArray()) {
            assertThat(c == '\n' || !TerminalText.unsafe(String.valueOf(c), 0) || Character.isSurrogate(c))
                    .as("character U+%04x on the screen", (int) c).isTrue();
        }
        assertThat(screen).doesNotContain("\u001b", "\r", "\u2028", "\u202e");
    }

    @Test
    void aDisabledLimiterAndARedisStoreAreSpelledOut() {
        LimiterStatus sample = StatusSamples.sample();
        LimiterStatus disabled = new LimiterStatus(1, "v", "r.yml", false, 0, 0, 0, "", "", 0, 3, "", "", List.of(),
                new StoreStatus("redis", "fallback", "redis://cache:6379", "local", 100, 2, 1, 5, 1, 120, 900, 4000));
        String screen = screen(disabled);
        assertThat(screen).contains("in pid 1: DISABLED (kill switch thrown: every request is allowed)");
        assertThat(screen).contains("reloads: 0 ok, 0 failed; no reload yet");
        assertThat(screen).contains("store:   redis redis://cache:6379 FALLBACK, on-failure local; 100 round trips, "
                + "2 errors, 1 timeouts, 5 fallbacks, 1 circuit opens; latency p50 120 us, p99 900 us, max 4000 us");
        assertThat(screen).contains("errors:  3 internal errors");
        assertThat(screen).endsWith("no rules in force");
        assertThat(sample.lastReloadFailed()).isTrue();
    }

    @Test
    void aRuleThatNeverMatchedSaysSoWithWhatItMatches() {
        RuleStatus idle = new RuleStatus("idle", "http GET /api/**", "ip", "fixed-window", 5, 1_000, 5, "enforce",
                "enforce", 0, 0, 0, 0, 0, 0, false, List.of());
        RuleStatus busy = new RuleStatus("busy", "http /x", "ip", "fixed-window", 5, 1_000, 5, "enforce",
                "enforce", 0, 1, 0, 0, 1, 0, false, List.of());
        LimiterStatus status = new LimiterStatus(1, "", "", true, 2, 0, 0, "", "", 0, 0, "", "",
                List.of(idle, busy), null);
        String screen = screen(status);
        assertThat(screen).contains("  idle: never matched since it came in force (no traffic yet, or check what it"
                + " matches: http GET /api/**)");
        assertThat(screen).doesNotContain("busy: never matched");
    }

    @Test
    void aRuleWhoseClassNeverLoadedSaysSoInsteadOfNeverMatched() {
        RuleStatus typo = new RuleStatus("typo", "method com.acme.OrderServce#place", "global", "fixed-window", 5,
                1_000, 5, "enforce", "enforce", 0, 0, 0, 0, 0, 0, true, List.of());
        LimiterStatus status = new LimiterStatus(1, "", "", true, 1, 0, 0, "", "", 0, 0, "", "", List.of(typo), null);
        String screen = screen(status);
        assertThat(screen).contains("  typo: no class it names has loaded, so it limits nothing yet (a misspelt class"
                + " name? the agent's log names the nearest loaded class): method com.acme.OrderServce#place");
        assertThat(screen).doesNotContain("typo: never matched");
    }

    @Test
    void unknownNumbersShowAsADash() {
        RuleStatus old = new RuleStatus("old", "", "", "", -1, -1, -1, "", "", -1, -1, -1, -1, -1, -1, false, List.of());
        LimiterStatus status = new LimiterStatus(1, "", "", true, 1, -1, -1, "", "", -1, -1, "", "", List.of(old), null);
        String screen = screen(status);
        assertThat(screen).contains("reloads: - ok, - failed");
        assertThat(screen).contains("store:   - (no store MBean)");
        assertThat(screen.lines().filter(l -> l.startsWith("old")).findFirst().orElseThrow())
                .matches("old +- +- +- +- +- +-");
    }

    @Test
    void limitsReadAsTheRulesFileWritesThem() {
        assertThat(StatusScreen.window(1_000)).isEqualTo("1s");
        assertThat(StatusScreen.window(90_000)).isEqualTo("90s");
        assertThat(StatusScreen.window(3_600_000)).isEqualTo("1h");
        assertThat(StatusScreen.window(120_000)).isEqualTo("2m");
        assertThat(StatusScreen.window(250)).isEqualTo("250ms");
        RuleStatus leaky = new RuleStatus("l", "", "", "leaky-bucket", 5, 1_000, 50, "", "", 0, 0, 0, 0, 0, 0, false, List.of());
        assertThat(StatusScreen.limit(leaky)).isEqualTo("5/1s queue 50");
        RuleStatus adaptive = new RuleStatus("a", "", "", "adaptive", 1000, 1_000, 1000, "", "", 0, 0, 0, 0, 0, 0,
                false, List.of(), 14);
        assertThat(StatusScreen.limit(adaptive)).isEqualTo("14 at once (adaptive, max 1000)");
    }
}
