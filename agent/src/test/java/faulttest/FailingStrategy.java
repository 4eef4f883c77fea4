package faulttest;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.Strategies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A custom strategy (registered through the SPI, like a user's) whose every check throws: how the tests prove
 * that a failing rule neither breaks the request nor escapes its {@code on-error}.
 *
 * <p>Not listed in the test class path's {@code META-INF/services} (every loader below it would see it, e.g. the
 * strategy jars' child loaders); {@link #register} lists it in a directory of its own.
 */
public final class FailingStrategy implements RateLimitStrategy {

    public static final String NAME = "failing-for-tests";

    /** Makes {@value #NAME} a strategy rules can name, through a services file written under {@code dir}. */
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

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new Bucket();
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        throw new IllegalStateException("injected fault");
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return 0;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return true;
    }
}
