package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisSettingsTest {

    @Test
    void defaultsMatchTheIssue() {
        RedisSettings s = RedisSettings.of("redis://127.0.0.1:6379");
        assertThat(s.timeout()).isEqualTo(Duration.ofMillis(50));
        assertThat(s.onFailure()).isEqualTo(OnFailure.LOCAL);
        assertThat(s.keyPrefix()).isEqualTo("limiter:");
        assertThat(s.cluster()).isFalse();
    }

    @Test
    void aListOfNodesIsACluster() {
        RedisSettings s = RedisSettings.parse("redis://a:7000, redis://b:7001 ,redis://c:7002");
        assertThat(s.uris()).containsExactly("redis://a:7000", "redis://b:7001", "redis://c:7002");
        assertThat(s.cluster()).isTrue();
        assertThat(RedisSettings.of("redis://a:7000").withCluster(true).cluster()).isTrue();
    }

    @Test
    void passwordsNeverShowInToString() {
        RedisSettings s = RedisSettings.of("rediss://app:s3cret@redis.internal:6380/0");
        assertThat(s.toString()).doesNotContain("s3cret").contains("rediss://***@redis.internal:6380/0");
    }

    @Test
    void invalidValuesAreRejectedWithTheirName() {
        assertThatThrownBy(() -> RedisSettings.of("http://x")).hasMessageContaining("store.uri");
        assertThatThrownBy(() -> RedisSettings.parse(" , ")).hasMessageContaining("store.uri");
        RedisSettings s = RedisSettings.of("redis://x");
        assertThatThrownBy(() -> s.withTimeout(Duration.ZERO)).hasMessageContaining("store.timeout");
        assertThatThrownBy(() -> s.withKeyPrefix("a{b}")).hasMessageContaining("store.key-prefix");
        assertThatThrownBy(() -> s.withOnFailure(null)).hasMessageContaining("store.on-failure");
        assertThatThrownBy(() -> s.withPoolSize(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onFailureParsesTheYamlSpelling() {
        assertThat(OnFailure.byName("local")).isEqualTo(OnFailure.LOCAL);
        assertThat(OnFailure.byName(" Reject ")).isEqualTo(OnFailure.REJECT);
        assertThat(OnFailure.byName("maybe")).isNull();
    }
}
