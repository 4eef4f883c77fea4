package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.Strategies;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Strategies#register}: strategies from a loader other than core's (the agent's {@code strategies=} jars).
 * Each test lists providers in a services file of its own folder, loaded by a child of the test loader.
 */
class StrategiesRegisterTest {

    @TempDir
    Path dir;

    @Test
    void addsTheLoadersStrategiesByNameAndSkipsOnesAlreadyKnown() throws IOException {
        try (URLClassLoader loader = servicesLoader(AlwaysAllow.class.getName())) {
            assertThat(Strategies.register(loader)).contains("test-always-allow");
            assertThat(Strategies.byName("Test-Always-Allow")).isInstanceOf(AlwaysAllow.class);
            assertThat(Strategies.names()).contains("test-always-allow");
            assertThat(Strategies.names().get(0)).isEqualTo("fixed-window");
            assertThat(Strategies.register(loader)).as("the same class again: no error").contains("test-always-allow");
            assertThat(Strategies.names()).containsOnlyOnce("test-always-allow");
        }
    }

    @Test
    void aBuiltInNameCannotBeTakenAndNothingOfTheLoaderIsAdded() throws IOException {
        try (URLClassLoader loader = servicesLoader(NamedLikeNothingElse.class.getName(), Impostor.class.getName())) {
            assertThatThrownBy(() -> Strategies.register(loader))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("strategy name 'fixed-window' is already taken by "
                            + FixedWindowStrategy.class.getName());
            assertThat(Strategies.byName("fixed-window")).isSameAs(FixedWindowStrategy.INSTANCE);
            assertThat(Strategies.byName("test-named-like-nothing-else")).as("all or nothing").isNull();
        }
    }

    @Test
    void aProviderThatCannotBeLoadedIsNamedInTheError() throws IOException {
        try (URLClassLoader loader = servicesLoader("com.example.NoSuchStrategy")) {
            assertThatThrownBy(() -> Strategies.register(loader))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("com.example.NoSuchStrategy");
        }
    }

    private URLClassLoader servicesLoader(String... providers) throws IOException {
        Path services = dir.resolve("META-INF/services/" + RateLimitStrategy.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, String.join("\n", providers) + "\n");
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    /** Admits everything: the smallest strategy with a name of its own. */
    public static class AlwaysAllow implements RateLimitStrategy {
        @Override
        public String name() {
            return "test-always-allow";
        }

        @Override
        public Bucket newBucket(LimitConfig config) {
            return new Bucket();
        }

        @Override
        public boolean check(Bucket bucket, LimitConfig config, long[] out) {
            return Outcome.allow(out, config.limit(), 0, config.limit());
        }

        @Override
        public long peek(Bucket bucket, LimitConfig config, long[] out) {
            Outcome.allow(out, config.limit(), 0, config.limit());
            return config.limit();
        }

        @Override
        public boolean isIdle(Bucket bucket, LimitConfig config) {
            return true;
        }
    }

    /** A fresh name, listed next to an impostor: must not be added when the impostor fails. */
    public static class NamedLikeNothingElse extends AlwaysAllow {
        @Override
        public String name() {
            return "test-named-like-nothing-else";
        }
    }

    /** Claims a built-in's name. */
    public static class Impostor extends AlwaysAllow {
        @Override
        public String name() {
            return "fixed-window";
        }
    }
}
