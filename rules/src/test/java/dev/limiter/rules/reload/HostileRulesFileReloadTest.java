package dev.limiter.rules.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.HostileRulesFile;
import dev.limiter.rules.compile.LoadCost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each {@link HostileRulesFile} put in place of good rules: the reload is refused with the error a person sees,
 * counted as a failed reload, in bounded time and memory, and the last good rules stay in force with their
 * state (a key that used its budget is still rejected). An explicit reload first, then the watcher: it must not
 * get stuck on the file (a named pipe blocks whoever opens it), must not retry a file that stays bad on every
 * check, and must pick up the fix.
 */
class HostileRulesFileReloadTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /**
     * Time stands still for the limiters: the good rules' window is an hour of the wall clock, and a run across
     * the hour's end would otherwise give key k a fresh budget.
     */
    private final ManualClock clock = new ManualClock(1_000_000);

    @TempDir
    Path dir;

    private RuleSetHolder holder;

    /**
     * Closes on another thread, with a bound: a reload blocked in the file system (a named pipe opened) holds the
     * holder's lock, and this test must fail then, not hang the build.
     */
    @AfterEach
    void stop() throws InterruptedException {
        if (holder != null) {
            Thread closer = new Thread(holder::close, "close-holder");
            closer.setDaemon(true);
            closer.start();
            closer.join(PATIENCE.toMillis());
            assertThat(closer.isAlive()).as("the holder closed: no reload is stuck holding it").isFalse();
        }
    }

    /** Opens good rules ({@code a}: 2 per hour) and uses key k's budget, so "still enforced" is observable. */
    private Path openGoodRulesAndExhaustKeyK() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, HostileRulesFile.GOOD);
        holder = RuleSetHolder.open(file, clock);
        assertThat(holder.lastError()).isNull();
        Rule rule = holder.current().rule("a");
        assertThat(rule.limiter().tryAcquire("k", new long[Outcome.SIZE])).isTrue();
        assertThat(rule.limiter().tryAcquire("k", new long[Outcome.SIZE])).isTrue();
        assertThat(rule.limiter().tryAcquire("k", new long[Outcome.SIZE])).isFalse();
        return file;
    }

    private void assertLastGoodRulesStillEnforced(RuleSet good) {
        assertThat(holder.current()).isSameAs(good);
        assertThat(holder.current().rule("a").limiter().tryAcquire("k", new long[Outcome.SIZE]))
                .as("k's budget is used").isFalse();
    }

    private void assertRefusedWith(HostileRulesFile hostile) {
        String first = holder.lastErrors().get(0).toString();
        if (hostile.expectedIsPattern()) {
            assertThat(first).matches(hostile.expected);
        } else {
            assertThat(first).isEqualTo(hostile.expected);
        }
    }

    @ParameterizedTest
    @EnumSource(HostileRulesFile.class)
    void anExplicitReloadIsRefusedAndTheLastGoodRulesStayInForce(HostileRulesFile hostile) throws Exception {
        Path file = openGoodRulesAndExhaustKeyK();
        RuleSet good = holder.current();
        hostile.replace(file);

        boolean[] reloaded = new boolean[1];
        // preemptive, so a reload that blocks (a named pipe opened) fails the test instead of hanging the build
        LoadCost cost = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> LoadCost.of("reload " + hostile,
                () -> reloaded[0] = holder.reload()));

        assertThat(cost.thrown()).isNull();
        assertThat(reloaded[0]).isFalse();
        assertRefusedWith(hostile);
        assertThat(holder.failedReloadCount()).isEqualTo(1);
        assertThat(holder.reloadCount()).isZero();
        assertLastGoodRulesStillEnforced(good);
        assertThat(cost.millis()).isLessThan(5_000);
        // the read for the fingerprint and the parse: twice a load's budget
        assertThat(cost.allocatedBytes()).isLessThan(2 * hostile.maxAllocatedBytes());

        Files.deleteIfExists(file);
        Files.writeString(file, HostileRulesFile.GOOD.replace("limit: 2", "limit: 3"));
        assertThat(holder.reload()).as("the fixed file").isTrue();
        assertThat(holder.current().rule("a").limiter().config().limit()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(HostileRulesFile.class)
    void theWatcherRefusesTheFileOnceAndStillPicksUpTheFix(HostileRulesFile hostile) throws Exception {
        Path file = openGoodRulesAndExhaustKeyK();
        RuleSet good = holder.current();
        RulesWatcher watcher = holder.startWatching(Duration.ofMillis(100), Duration.ofMillis(20));
        hostile.replace(file);

        // replace() deletes, then writes: a check between the two refuses a missing file first
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(holder.lastErrors()).isNotEmpty();
            assertRefusedWith(hostile);
        });
        long failed = holder.failedReloadCount();
        long checks = watcher.checks();
        await().atMost(PATIENCE).until(() -> watcher.checks() >= checks + 3);
        assertThat(holder.failedReloadCount()).as("a file that stays bad is not reloaded on every check")
                .isEqualTo(failed);
        assertLastGoodRulesStillEnforced(good);

        Files.deleteIfExists(file);
        Files.writeString(file, HostileRulesFile.GOOD.replace("limit: 2", "limit: 3"));
        await().atMost(PATIENCE).untilAsserted(() -> {
            Rule fixed = holder.current().rule("a");
            assertThat(fixed).isNotNull();
            assertThat(fixed.limiter().config().limit()).isEqualTo(3);
        });
    }
}
