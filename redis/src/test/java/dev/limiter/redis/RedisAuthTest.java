package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Credentials in the URI against a {@code redis-server --requirepass} with ACL users: the default user's
 * password, a named ACL user, a user whose key pattern does not cover the prefix, and a wrong password (the store
 * says why and applies on-failure).
 */
class RedisAuthTest {

    private static final String PASSWORD = "s3cret:with@odd/chars";
    private static final String ENCODED = "s3cret%3Awith%40odd%2Fchars";
    private static final long LONG_WINDOW = LimitConfig.MAX_WINDOW_MILLIS;
    private static final Duration SLOW_MACHINE = Duration.ofSeconds(2);

    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.start("--requirepass", PASSWORD);
        try (Jedis admin = server.jedis()) {
            admin.auth(PASSWORD);
            // what the store needs: its scripts (and the commands they run) on its own keys, PING for the probe
            admin.aclSetUser("limiter", "on", ">limiter-pw", "~limiter:*", "+@all");
            admin.aclSetUser("elsewhere", "on", ">elsewhere-pw", "~other:*", "+@all");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private String uri(String userInfo) {
        return "redis://" + userInfo + "@127.0.0.1:" + server.port();
    }

    private static int admitted(KeyedLimiter limiter, String key, int attempts) {
        long[] out = Outcome.newArray();
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            admitted += limiter.tryAcquire(key, out) ? 1 : 0;
        }
        return admitted;
    }

    @Test
    void theDefaultUsersPasswordPercentEncodedInTheUri() {
        try (RedisStore store = RedisStore.connect(RedisSettings.parse(uri(":" + ENCODED)).withTimeout(SLOW_MACHINE))) {
            assertThat(store.state()).isEqualTo(StoreState.UP);
            assertThat(admitted(store.limiter("default-user", "fixed-window", LimitConfig.of(3, LONG_WINDOW), 10),
                    "k", 5)).isEqualTo(3);
            assertThat(store.stats().getErrors()).isZero();
            assertThat(store.stats().getLastError()).isEmpty();
        }
    }

    @Test
    void anAclUserSharesTheLimitWithAnotherJvmOfTheSameUser() {
        RedisSettings settings = RedisSettings.parse(uri("limiter:limiter-pw")).withTimeout(SLOW_MACHINE);
        try (RedisStore one = RedisStore.connect(settings); RedisStore two = RedisStore.connect(settings)) {
            assertThat(one.state()).isEqualTo(StoreState.UP);
            LimitConfig config = LimitConfig.of(4, LONG_WINDOW);
            int admitted = admitted(one.limiter("acl", "token-bucket", config, 10), "k", 3)
                    + admitted(two.limiter("acl", "token-bucket", config, 10), "k", 3);
            assertThat(admitted).isEqualTo(4);
            assertThat(one.stats().getRoundTrips() + two.stats().getRoundTrips()).isEqualTo(6);
        }
        try (Jedis admin = server.jedis()) {
            admin.auth(PASSWORD);
            assertThat(admin.exists("limiter:{acl:k}")).as("written as that user, under its key pattern").isTrue();
        }
    }

    @Test
    void aUserWhoseKeyPatternMissesThePrefixGetsOnFailurePerCheckWithTheCircuitClosed() {
        try (RedisStore store = RedisStore.connect(RedisSettings.parse(uri("elsewhere:elsewhere-pw"))
                .withTimeout(SLOW_MACHINE).withOnFailure(OnFailure.REJECT))) {
            assertThat(store.state()).as("PING is allowed: the connection is fine").isEqualTo(StoreState.UP);
            KeyedLimiter limiter = store.limiter("nope", "fixed-window", LimitConfig.of(3, LONG_WINDOW), 10);
            assertThat(admitted(limiter, "k", 2)).as("on-failure: reject").isZero();
            assertThat(store.stats().getErrors()).isEqualTo(2);
            assertThat(store.stats().getLastError()).contains("NOPERM");
            assertThat(store.state()).as("Redis answered: not an outage").isEqualTo(StoreState.UP);
        }
    }

    @Test
    void aWrongPasswordSaysWhyAndAppliesOnFailure() {
        try (RedisStore store = RedisStore.connect(RedisSettings.parse(uri("limiter:wrong-pw"))
                .withTimeout(SLOW_MACHINE).withProbeInterval(Duration.ofMillis(50)))) {
            assertThat(store.state()).isEqualTo(StoreState.FALLBACK);
            System.out.println("wrong password: " + store.stats().getLastError());
            assertThat(store.stats().getLastError()).contains("WRONGPASS").doesNotContain("wrong-pw");
            KeyedLimiter limiter = store.limiter("wrong", "fixed-window", LimitConfig.of(3, LONG_WINDOW), 10);
            assertThat(admitted(limiter, "k", 5)).as("on-failure: local, this JVM's own limit").isEqualTo(3);
            assertThat(store.stats().getFallbacks()).isEqualTo(5);
            assertThat(store.stats().getRoundTrips()).isZero();
        }
    }
}
