package dev.limiter.agent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.LogCapture;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.redis.RedisStore;
import dev.limiter.redis.StoreState;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's store wiring against a real {@code redis-server}: two holders with their own factories stand for
 * two JVMs sharing one Redis.
 */
class RedisLimiterFactoryTest {

    private static TestRedis redis;

    @TempDir
    Path dir;

    private final Logger log = Logger.getLogger("dev.limiter.test");
    private final RedisLimiterFactory first = new RedisLimiterFactory(log);
    private final RedisLimiterFactory second = new RedisLimiterFactory(log);
    private final long[] out = Outcome.newArray();

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() throws InterruptedException {
        redis.close();
    }

    @AfterEach
    void closeStores() {
        first.closeAll();
        second.closeAll();
    }

    private Path write(String name, String store, String extraRule) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "version: 1\n" + store + "rules:\n"
                + "  - id: shared-" + name.replace(".yml", "") + "\n    match: { http: { path: /a } }\n"
                + "    limit: 5\n    window: 1m\n"
                + "  - id: mine\n    match: { http: { path: /b } }\n    limit: 5\n    window: 1m\n"
                + "    store: local\n" + extraRule);
        return file;
    }

    private String store(String timeout) {
        return "store:\n  type: redis\n  uri: " + redis.uri() + "\n  timeout: " + timeout + "\n"
                + "  key-prefix: \"agent-test:\"\n";
    }

    private static RuleSetHolder open(Path file, RedisLimiterFactory factory) {
        RuleSetHolder holder = RuleSetHolder.open(file, null, factory);
        StoreRetention retention = new StoreRetention(factory);
        retention.retain(holder.current());
        holder.addListener(retention);
        return holder;
    }

    @Test
    void twoHoldersShareTheLimitOfARedisRuleAndKeepLocalRulesApart() throws IOException {
        Path file = write("share.yml", store("2s"), "");
        RuleSetHolder one = open(file, first);
        RuleSetHolder two = open(file, second);
        assertThat(one.lastError()).isNull();

        KeyedLimiter a1 = one.current().rule("shared-share").limiter();
        KeyedLimiter a2 = two.current().rule("shared-share").limiter();
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += a1.tryAcquire("k", out) ? 1 : 0;
            admitted += a2.tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(admitted).as("exactly the limit across both 'JVMs'").isEqualTo(5);

        KeyedLimiter b1 = one.current().rule("mine").limiter();
        KeyedLimiter b2 = two.current().rule("mine").limiter();
        assertThat(b1).isInstanceOf(LocalKeyedLimiter.class);
        int local = 0;
        for (int i = 0; i < 10; i++) {
            local += b1.tryAcquire("k", out) ? 1 : 0;
            local += b2.tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(local).as("store: local counts per JVM").isEqualTo(10);
        assertThat(first.active().stats().getRoundTrips()).isEqualTo(10);
        assertThat(first.active().state()).isEqualTo(StoreState.UP);
    }

    @Test
    void batchFromTheRulesFileReservesPermitsPerRoundTrip() throws IOException {
        Path file = write("batch.yml", store("2s") + "  batch: 10\n", "");
        RuleSetHolder one = open(file, first);
        RuleSetHolder two = open(file, second);
        assertThat(one.lastError()).isNull();
        assertThat(first.active().settings().batch()).isEqualTo(10);

        KeyedLimiter a1 = one.current().rule("shared-batch").limiter();
        KeyedLimiter a2 = two.current().rule("shared-batch").limiter();
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += a1.tryAcquire("k", out) ? 1 : 0;
        }
        for (int i = 0; i < 10; i++) {
            admitted += a2.tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(admitted).as("never more than the limit across both 'JVMs'").isEqualTo(5);
        // the first check reserves all 5 (the script grants what is left), the 6th learns the rejection and
        // the next 4 repeat it locally; the second JVM needs one round trip to learn it too
        assertThat(first.active().stats().getRoundTrips()).isEqualTo(2);
        assertThat(second.active().stats().getRoundTrips()).isEqualTo(1);

        write("batch.yml", store("2s"), "");
        assertThat(one.reload()).isTrue();
        assertThat(first.active().settings().batch()).as("removing the key turns batching off").isEqualTo(1);
    }

    @Test
    void aReloadKeepsTheConnectionUntilTheStoreSectionChangesThenClosesTheOldOne() throws IOException {
        Path file = write("reload.yml", store("2s"), "");
        RuleSetHolder holder = open(file, first);
        RedisStore store = first.active();
        KeyedLimiter limiter = holder.current().rule("shared-reload").limiter();

        write("reload.yml", store("2s"), "    mode: dry-run\n");
        assertThat(holder.reload()).isTrue();
        assertThat(first.active()).isSameAs(store);
        assertThat(first.open()).containsExactly(store);
        assertThat(holder.current().rule("shared-reload").limiter()).isSameAs(limiter);

        write("reload.yml", store("1500ms"), "");
        assertThat(holder.reload()).isTrue();
        RedisStore replaced = first.active();
        assertThat(replaced).isNotSameAs(store);
        assertThat(store.state()).isEqualTo(StoreState.DOWN);
        assertThat(replaced.state()).isEqualTo(StoreState.UP);
        assertThat(first.open()).containsExactly(replaced);
        assertThat(first.activeSpec().timeoutMillis()).isEqualTo(1500);

        write("reload.yml", "store:\n  type: redis\n  uri: http://nowhere\n", "");
        assertThat(holder.reload()).as("a bad store section is refused").isFalse();
        assertThat(first.active()).isSameAs(replaced);

        write("reload.yml", "", "");
        assertThat(holder.reload()).isTrue();
        assertThat(first.active()).isNull();
        assertThat(first.activeSpec()).isEqualTo(StoreSpec.LOCAL);
        assertThat(replaced.state()).isEqualTo(StoreState.DOWN);
        assertThat(holder.current().rule("shared-reload").limiter()).isInstanceOf(LocalKeyedLimiter.class);
    }

    @Test
    void aRuleTheStoreCannotServeStaysLocalInsteadOfFailingTheLoad() {
        StoreSpec spec = new StoreSpec("redis", List.of(redis.uri()), 2000, "local", "agent-test:");
        // 1 permit per 49 days with a capacity of 4 million: beyond the 2^53 the GCRA script computes exactly
        KeyedLimiter limiter = first.create("huge", spec, Strategies.byName("token-bucket"),
                LimitConfig.of(1, 49L * 24 * 3600 * 1000).withCapacity(4_000_000), 10, OnFull.REJECT);

        assertThat(limiter).isInstanceOf(LocalKeyedLimiter.class);
        assertThat(limiter.tryAcquire("k", out)).isTrue();
    }

    @Test
    void aWrongPasswordIsLoggedOnceWithTheReasonAndOnFailureApplies() throws InterruptedException {
        TestRedis secured = TestRedis.start("--requirepass", "right-pw");
        try (LogCapture capture = LogCapture.on(log)) {
            List<LogRecord> records = capture.records;
            StoreSpec wrong = new StoreSpec("redis", List.of(secured.uri("app:wrong-pw")), 2000, "local",
                    "agent-test:");
            KeyedLimiter limiter = first.create("secured", wrong, Strategies.byName("fixed-window"),
                    LimitConfig.of(2, 60_000), 10, OnFull.REJECT);
            int admitted = 0;
            for (int i = 0; i < 4; i++) {
                admitted += limiter.tryAcquire("k", out) ? 1 : 0;
            }
            assertThat(admitted).as("on-failure: local").isEqualTo(2);

            assertThat(records).hasSize(1);
            LogRecord record = records.get(0);
            System.out.println(record.getLevel() + ": " + record.getMessage());
            assertThat(record.getLevel()).isEqualTo(Level.WARNING);
            assertThat(record.getMessage()).contains("redis://app:***@127.0.0.1", "fallback", "on-failure local",
                    "WRONGPASS").doesNotContain("wrong-pw");

            StoreSpec right = new StoreSpec("redis", List.of(secured.uri(":right-pw")), 2000, "local",
                    "agent-test:");
            KeyedLimiter ok = first.create("secured", right, Strategies.byName("fixed-window"),
                    LimitConfig.of(2, 60_000), 10, OnFull.REJECT);
            assertThat(ok.tryAcquire("k", out)).isTrue();
            assertThat(records.get(1).getMessage()).endsWith(" up").doesNotContain("right-pw");
        } finally {
            secured.close();
        }
    }

    @Test
    void passwordsNeverShowInLogsOrJmx() {
        StoreSpec spec = new StoreSpec("redis", List.of("redis://app:s3cret@h1:6379/0", "rediss://:pw@h2:6380",
                "redis://token@h3", "redis://h4:6379"), 50, "local", "limiter:");

        assertThat(RedisLimiterFactory.redact(spec))
                .isEqualTo("redis://app:***@h1:6379/0,rediss://:***@h2:6380,redis://***@h3,redis://h4:6379");
    }
}
