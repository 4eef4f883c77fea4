package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A local three-master Redis Cluster: keys spread over the masters by their hash tag, each check runs on the
 * master of its slot, and the shared limit holds for every key.
 */
class RedisClusterTest {

    private static final long LONG_WINDOW = LimitConfig.MAX_WINDOW_MILLIS; // ~49 days: no window boundary within a test
    private static final List<RedisServer> nodes = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.add(RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000"));
        }
        List<String> cmd = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        for (RedisServer node : nodes) {
            cmd.add("127.0.0.1:" + node.port());
        }
        cmd.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Process create = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(create.waitFor()).isZero();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            for (RedisServer node : nodes) {
                try (Jedis j = node.jedis()) {
                    if (!j.clusterInfo().contains("cluster_state:ok")) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    @AfterAll
    static void stopCluster() {
        nodes.forEach(RedisServer::close);
    }

    private static RedisSettings settings() {
        List<String> uris = new ArrayList<>();
        for (RedisServer node : nodes) {
            uris.add(node.uri());
        }
        return RedisSettings.of(uris.toArray(new String[0])).withTimeout(Duration.ofSeconds(1));
    }

    @Test
    void sharedLimitHoldsForKeysOnEveryMaster() throws InterruptedException {
        List<RedisStore> stores = new ArrayList<>();
        try {
            List<KeyedLimiter> limiters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                RedisStore store = RedisStore.connect(settings());
                assertThat(store.state()).isEqualTo(StoreState.UP);
                assertThat(store.stats().getType()).isEqualTo("redis-cluster");
                stores.add(store);
                limiters.add(store.limiter("cluster", "fixed-window", LimitConfig.of(10, LONG_WINDOW), 1000));
            }
            // 30 keys, 10 admitted per key: 3 stores x 2 threads x 300 attempts over the keys
            int admitted = Contention.hammer(limiters, 2, 300, i -> "client-" + (i % 30));
            assertThat(admitted).isEqualTo(300);
            // the keys really are spread over the three masters
            for (RedisServer node : nodes) {
                try (Jedis j = node.jedis()) {
                    assertThat(j.dbSize()).as("keys on node %d", node.port()).isPositive();
                }
            }
            assertThat(limiters.get(0).activeKeys()).isEqualTo(30);
            long[] out = Outcome.newArray();
            assertThat(limiters.get(1).tryAcquire("client-7", out)).isFalse();
            limiters.get(2).resetKey("client-7");
            assertThat(limiters.get(1).tryAcquire("client-7", out)).isTrue();
        } finally {
            stores.forEach(RedisStore::close);
        }
    }

    @Test
    void everyStrategyRunsOnTheCluster() {
        try (RedisStore store = RedisStore.connect(settings())) {
            for (String strategy : List.of("fixed-window", "sliding-window", "token-bucket", "leaky-bucket",
                    "concurrency")) {
                KeyedLimiter limiter = store.limiter("all-" + strategy, strategy, LimitConfig.of(4, LONG_WINDOW), 10);
                long[] out = Outcome.newArray();
                for (int key = 0; key < 6; key++) {
                    int admitted = 0;
                    for (int i = 0; i < 6; i++) {
                        admitted += limiter.tryAcquire("k" + key, out) ? 1 : 0;
                    }
                    assertThat(admitted).as(strategy).isEqualTo(4);
                }
            }
            assertThat(store.stats().getErrors()).isZero();
        }
    }

    @Test
    void scriptsAreLoadedOnEachMasterAsNeeded() {
        try (RedisStore store = RedisStore.connect(settings())) {
            for (RedisServer node : nodes) {
                try (Jedis j = node.jedis()) {
                    j.scriptFlush();
                }
            }
            KeyedLimiter limiter = store.limiter("flush", "token-bucket", LimitConfig.of(2, LONG_WINDOW), 10);
            long[] out = Outcome.newArray();
            for (int key = 0; key < 20; key++) {
                assertThat(limiter.tryAcquire("k" + key, out)).isTrue();
            }
            assertThat(store.stats().getScriptReloads()).isBetween(1L, 3L); // once per master
        }
    }
}
