package dev.limiter.bench;

import dev.limiter.core.clock.Clock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A rules file in a folder of its own for one benchmark trial, and the holder that read it: refused at once if
 * the file is invalid (a benchmark must not measure a configuration it does not have); closing it deletes both.
 */
final class TrialRules implements AutoCloseable {

    final RuleSetHolder holder;
    private final Path dir;

    private TrialRules(RuleSetHolder holder, Path dir) {
        this.holder = holder;
        this.dir = dir;
    }

    /** {@code yaml} (a whole rules file) read with {@code clock}, null for the library's coarse clock. */
    static TrialRules open(String yaml, Clock clock) throws IOException {
        Path dir = Files.createTempDirectory("limiter-bench");
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, yaml);
        RuleSetHolder holder = RuleSetHolder.open(file, clock);
        if (holder.lastError() != null) {
            throw new IllegalStateException(holder.lastError());
        }
        return new TrialRules(holder, dir);
    }

    @Override
    public void close() throws IOException {
        holder.close();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
