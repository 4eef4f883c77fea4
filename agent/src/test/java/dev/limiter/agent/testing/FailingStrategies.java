package dev.limiter.agent.testing;

import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.spi.FailingStrategy;
import dev.limiter.core.strategy.Strategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes {@link FailingStrategy} (every check throws) a strategy rules can name, through the SPI like a user's.
 *
 * <p>Not listed in the test class path's {@code META-INF/services}: every loader below it would see it (e.g. the
 * strategy jars' child loaders in other tests); the services file is written to a directory of its own.
 */
public final class FailingStrategies {

    private FailingStrategies() {
    }

    /** Registers {@value FailingStrategy#NAME}, writing its services file under {@code dir}. */
    public static void register(Path dir) {
        try {
            Path services = dir.resolve("META-INF/services/" + RateLimitStrategy.class.getName());
            Files.createDirectories(services.getParent());
            Files.writeString(services, FailingStrategy.class.getName() + "\n");
            Strategies.register(new URLClassLoader(new URL[] {dir.toUri().toURL()},
                    FailingStrategy.class.getClassLoader()));
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
