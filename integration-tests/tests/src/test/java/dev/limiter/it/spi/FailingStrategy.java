package dev.limiter.it.spi;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * A custom strategy whose every check throws, shipped to a forked server the way a user ships a strategy: in a
 * jar of its own given to the agent with {@code strategies=} ({@link #writeJar}). How the tests make a rule fail
 * inside a real server without any test switch in the agent.
 */
public final class FailingStrategy implements RateLimitStrategy {

    public static final String NAME = "failing-for-tests";
    public static final String MESSAGE = "injected fault";

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
        throw new IllegalStateException(MESSAGE);
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return 0;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return true;
    }

    /** Writes a strategy jar holding this class and its services entry to {@code jar}. */
    public static Path writeJar(Path jar) {
        String classFile = FailingStrategy.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                InputStream bytes = FailingStrategy.class.getClassLoader().getResourceAsStream(classFile)) {
            out.putNextEntry(new JarEntry(classFile));
            bytes.transferTo(out);
            out.putNextEntry(new JarEntry("META-INF/services/" + RateLimitStrategy.class.getName()));
            out.write((FailingStrategy.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }
}
