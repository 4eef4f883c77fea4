package dev.limiter.rules.reload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Explicit reloads: atomic publication, keep-last-good, error bookkeeping, listeners. */
class RuleSetHolderTest {

    @TempDir
    Path dir;

    static String rules(String id, int limit) {
        return "version: 1\nrules:\n  - id: " + id + "\n    match: { http: { path: /" + id + " } }\n    limit: "
                + limit + "\n    window: 1s\n";
    }

    @Test
    void startsEmptyWithAnErrorAndAFixedFileTurnsProtectionOn() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n  - id: a\n    limit: nope\n");
        RuleSetHolder holder = RuleSetHolder.open(file);
        assertThat(holder.current().rules()).isEmpty();
        assertThat(holder.lastError()).startsWith("rules.yml:3:5: rule 'a' has no 'match'");
        assertThat(holder.lastErrors()).hasSize(3);
        assertThat(holder.lastErrorMillis()).isPositive();

        Files.writeString(file, rules("a", 5));
        assertThat(holder.reload()).isTrue();
        assertThat(holder.current().rule("a")).isNotNull();
        assertThat(holder.lastError()).isNull();
        assertThat(holder.lastErrors()).isEmpty();
        assertThat(holder.reloadCount()).isEqualTo(1);
    }

    @Test
    void bytesReadBeforeTheParseAreWhatIsParsedAndAChangeSinceIsNoticed() throws Exception {
        Path file = dir.resolve("rules.yml");
        byte[] read = rules("early", 5).getBytes(StandardCharsets.UTF_8);
        Files.writeString(file, rules("late", 7)); // the file changed after its bytes were read
        RuleSetHolder holder = RuleSetHolder.open(file, read, null, LimiterFactory.LOCAL);
        assertThat(holder.current().rule("early")).as("the bytes given, not the file again").isNotNull();
        assertThat(holder.current().rule("late")).isNull();
        assertThat(FileFingerprint.of(file)).as("the watcher sees the file differ from what was parsed")
                .isNotEqualTo(holder.loadedFingerprint());

        Files.writeString(file, rules("early", 5));
        RuleSetHolder same = RuleSetHolder.open(file, Files.readAllBytes(file), null, LimiterFactory.LOCAL);
        assertThat(FileFingerprint.of(file)).isEqualTo(same.loadedFingerprint());
        assertThat(RuleSetHolder.open(file, "version: nope".getBytes(StandardCharsets.UTF_8), null,
                LimiterFactory.LOCAL).lastError()).startsWith("rules.yml:1:");
    }

    @Test
    void aMissingFileIsAnErrorNotACrash() {
        RuleSetHolder holder = RuleSetHolder.open(dir.resolve("absent.yml"));
        assertThat(holder.current()).isSameAs(RuleSet.empty());
        assertThat(holder.lastError()).isEqualTo("absent.yml:1:1: the rules file does not exist");
    }

    @Test
    void aBrokenReloadKeepsTheLastGoodRulesAndRecordsWhy() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules("a", 5));
        RuleSetHolder holder = RuleSetHolder.open(file);
        RuleSet good = holder.current();
        assertThat(holder.lastReloadMillis()).isPositive();

        Files.writeString(file, "version: 1\nrules: [\n");
        assertThat(holder.reload()).isFalse();
        assertThat(holder.current()).isSameAs(good);
        assertThat(holder.lastError()).startsWith("rules.yml:3:1: invalid YAML");
        assertThat(holder.failedReloadCount()).isEqualTo(1);
        assertThat(holder.reloadCount()).isZero();
    }

    @Test
    void listenersHearEveryReloadInOrderAndCannotBreakIt() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules("a", 5));
        RuleSetHolder holder = RuleSetHolder.open(file);
        List<String> heard = new ArrayList<>();
        holder.addListener((previous, current) -> {
            throw new IllegalStateException("a broken listener");
        });
        holder.addListener(new ReloadListener() {
            @Override
            public void reloaded(RuleSet previous, RuleSet current) {
                heard.add(previous.rules().get(0).id() + "->" + current.rules().get(0).id());
            }

            @Override
            public void reloadFailed(RulesException error, RuleSet current) {
                heard.add("failed:" + error.errors().size() + ":" + current.rules().get(0).id());
            }
        });

        Files.writeString(file, rules("b", 5));
        assertThat(holder.reload()).isTrue();
        Files.writeString(file, "oops: [");
        assertThat(holder.reload()).isFalse();
        assertThat(heard).containsExactly("a->b", "failed:1:b");
        assertThat(holder.current().rule("b")).isNotNull();
    }

    @Test
    void concurrentReadersOnlyEverSeeCompleteSets() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules("a", 1));
        RuleSetHolder holder = RuleSetHolder.open(file);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger torn = new java.util.concurrent.atomic.AtomicInteger();
        Thread reader = new Thread(() -> {
            Rule[] out = new Rule[4];
            while (!stop.get()) {
                RuleSet set = holder.current();
                Rule rule = set.rules().get(0);
                if (set.matchHttp("GET", "/" + rule.id(), out) != 1 || out[0] != rule) {
                    torn.incrementAndGet();
                }
            }
        });
        reader.start();
        for (int i = 0; i < 50; i++) {
            Files.writeString(file, rules(i % 2 == 0 ? "b" : "a", i + 1));
            assertThat(holder.reload()).isTrue();
        }
        stop.set(true);
        reader.join();
        assertThat(torn.get()).isZero();
        assertThat(holder.reloadCount()).isEqualTo(50);
    }
}
