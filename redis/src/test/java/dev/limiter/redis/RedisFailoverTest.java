package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A failover mid-traffic: a replica promoted ({@code REPLICAOF NO ONE}), the primary killed, and the address the
 * stores use (a {@link TcpProxy} standing for a virtual IP or DNS name) moved to the new primary. The store
 * knows one address and no Sentinel: it sees the cut connections as an outage (circuit, on-failure, bounded by
 * the timeout), reconnects through the same address by itself, reloads its scripts on the new primary, and the
 * counts that had replicated carry over. And the opposite case, the address left on a demoted primary (now a
 * read-only replica): every check that writes is refused with {@code READONLY} and applies on-failure, counted,
 * without an exception; the store cannot heal that by itself.
 */
class RedisFailoverTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final long MARGIN_MILLIS = Long.getLong("limiter.redis.margin", TIMEOUT.toMillis() / 2);
    private static final long LONG_WINDOW = LimitConfig.MAX_WINDOW_MILLIS;

    @Test
    void aPromotedReplicaBehindTheSameAddressTakesOverWithTheReplicatedCounts() throws Exception {
        try (RedisServer primary = RedisServer.start();
                RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", String.valueOf(primary.port()));
                TcpProxy address = new TcpProxy(primary.port())) {
            replica.awaitReplicating();
            RedisSettings settings = RedisSettings.of(address.uri()).withTimeout(TIMEOUT)
                    .withProbeInterval(Duration.ofMillis(100));
            try (RedisStore busy = RedisStore.connect(settings);
                    // exact counts: a generous timeout, so a slow machine does not make a check fall back
                    RedisStore exact = RedisStore.connect(RedisSettings.of(address.uri())
                            .withTimeout(Duration.ofSeconds(2)).withProbeInterval(Duration.ofMillis(100)))) {
                KeyedLimiter shared = exact.limiter("failover", "fixed-window", LimitConfig.of(100, LONG_WINDOW), 10);
                long[] out = Outcome.newArray();
                for (int i = 0; i < 30; i++) {
                    assertThat(shared.tryAcquire("budget", out)).isTrue();
                }
                try (Jedis j = primary.jedis()) {
                    assertThat(j.waitReplicas(1, 5000)).as("the 30 reached the replica").isEqualTo(1);
                }
                KeyedLimiter load = busy.limiter("failover-load", "fixed-window",
                        LimitConfig.of(1_000_000, LONG_WINDOW), 100);
                try (CheckLoad checks = new CheckLoad(List.of(load), 2)) {
                    await().until(() -> busy.stats().getRoundTrips() > 100);
                    checks.resetSlowest();
                    long opens = busy.stats().getCircuitOpens();
                    long failoverStart = System.nanoTime();

                    replica.promote();
                    primary.kill();
                    address.switchTo(replica.port());

                    await().atMost(Duration.ofSeconds(10)).until(() -> busy.stats().getCircuitOpens() > opens
                            && busy.state() == StoreState.UP);
                    long trips = busy.stats().getRoundTrips();
                    await().atMost(Duration.ofSeconds(5)).until(() -> busy.stats().getRoundTrips() > trips + 100);
                    String what = "failover: back on the new primary after "
                            + (System.nanoTime() - failoverStart) / 1_000_000 + " ms, slowest check "
                            + checks.slowestMillis() + " ms, " + busy.stats();
                    System.out.println(what);
                    assertThat(checks.slowestMillis()).as(what)
                            .isLessThanOrEqualTo(checks.allowedMillis(TIMEOUT.toMillis() + MARGIN_MILLIS));
                    assertThat(checks.thrown.get()).isZero();
                }
                // this store's pooled connections were cut too: it finds out on its next round trip
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    long trips = exact.stats().getRoundTrips();
                    shared.remaining("another", out);
                    return exact.stats().getRoundTrips() > trips;
                });
                long fallbacks = exact.stats().getFallbacks();
                int admitted = 0;
                for (int i = 0; i < 100; i++) {
                    admitted += shared.tryAcquire("budget", out) ? 1 : 0;
                }
                // the store may have found the old connections cut: those checks fell back, one each at most
                long fellBack = exact.stats().getFallbacks() - fallbacks;
                System.out.println("failover: " + admitted + " of 70 left admitted on the new primary, " + fellBack
                        + " fell back, " + exact.stats());
                if (fellBack == 0) {
                    assertThat(admitted).as("the replicated 30 still count").isEqualTo(70);
                }
                try (Jedis j = replica.jedis()) {
                    assertThat(j.hget("limiter:{failover:budget}", "n")).isEqualTo("100");
                }
                assertThat(busy.stats().getScriptReloads() + exact.stats().getScriptReloads())
                        .as("the new primary had no scripts cached").isPositive();
            }
        }
    }

    @Test
    void anAddressLeftOnADemotedPrimaryAppliesOnFailureToEveryWrite() throws Exception {
        try (RedisServer primary = RedisServer.start();
                RedisServer other = RedisServer.start()) {
            try (RedisStore store = RedisStore.connect(RedisSettings.of(primary.uri())
                    .withTimeout(Duration.ofSeconds(2)))) {
                KeyedLimiter limiter = store.limiter("demoted", "fixed-window", LimitConfig.of(3, LONG_WINDOW), 10);
                long[] out = Outcome.newArray();
                assertThat(limiter.tryAcquire("k", out)).isTrue();
                try (Jedis j = primary.jedis()) {
                    j.replicaof("127.0.0.1", other.port()); // what a failover does to the old primary
                }
                primary.awaitReplicating();
                long opens = store.stats().getCircuitOpens();
                int admitted = 0;
                for (int i = 0; i < 10; i++) {
                    admitted += limiter.tryAcquire("k", out) ? 1 : 0;
                }
                System.out.println("demoted primary: " + store.stats());
                assertThat(admitted).as("this JVM's own limit").isEqualTo(3);
                assertThat(store.stats().getFallbacks()).isEqualTo(10);
                assertThat(store.stats().getLastError()).contains("READONLY");
                assertThat(store.stats().getCircuitOpens()).as("Redis answered: no outage").isEqualTo(opens);
            }
        }
    }
}
