package dev.limiter.rules.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.rules.RuleSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live reload through the file system, the ways real deployments change files: an editor's rename, a
 * Kubernetes ConfigMap {@code ..data} symlink swap, an in-place write, and a broken save that must keep the
 * old rules. Generous timeouts: the machine is shared and slow.
 */
class RulesWatcherTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private RuleSetHolder holder;

    @AfterEach
    void stop() {
        if (holder != null) {
            holder.close();
        }
    }

    private RuleSetHolder watch(Path file) {
        holder = RuleSetHolder.open(file);
        holder.startWatching(Duration.ofMillis(500), Duration.ofMillis(50));
        return holder;
    }

    private void awaitRule(String id) {
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(holder.current().rule(id)).isNotNull());
    }

    @Test
    void reloadsWhenAnEditorRenamesANewFileOverTheOld() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        watch(file);
        Path temp = dir.resolve(".rules.yml.swp");
        Files.writeString(temp, RuleSetHolderTest.rules("b", 5));
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        awaitRule("b");
        assertThat(holder.reloadCount()).isEqualTo(1);
    }

    @Test
    void reloadsWhenAConfigMapSwapsItsDataSymlink() throws Exception {
        // the kubelet layout: rules.yml -> ..data/rules.yml, ..data -> ..2026_01, swapped by renaming a new link
        Path first = Files.createDirectory(dir.resolve("..2026_01"));
        Files.writeString(first.resolve("rules.yml"), RuleSetHolderTest.rules("a", 5));
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Path file = dir.resolve("rules.yml");
        Files.createSymbolicLink(file, Path.of("..data", "rules.yml"));
        watch(file);
        assertThat(holder.current().rule("a")).isNotNull();

        Path second = Files.createDirectory(dir.resolve("..2026_02"));
        Files.writeString(second.resolve("rules.yml"), RuleSetHolderTest.rules("b", 5));
        Path newLink = Files.createSymbolicLink(dir.resolve("..data_tmp"), second.getFileName());
        Files.move(newLink, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        awaitRule("b");
    }

    @Test
    void reloadsAnInPlaceWriteAndKeepsTheOldRulesOnABrokenOne() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        watch(file);
        RuleSet good = holder.current();

        Files.writeString(file, "version: 1\nrules:\n  - id: b\n    limit: -1\n");
        await().atMost(PATIENCE).until(() -> holder.lastError() != null);
        assertThat(holder.current()).isSameAs(good);
        assertThat(holder.lastError()).contains("rules.yml:4:12: limit must be at least 1, not -1");
        assertThat(holder.failedReloadCount()).isEqualTo(1);

        Files.writeString(file, RuleSetHolderTest.rules("c", 5));
        awaitRule("c");
        assertThat(holder.lastError()).isNull();
    }

    @Test
    void anInvalidFileAtStartUpIsWatchedUntilItIsFixed() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules: nope\n");
        watch(file);
        assertThat(holder.current().rules()).isEmpty();
        assertThat(holder.lastError()).isNotNull();

        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        awaitRule("a");
    }

    @Test
    void aFileCreatedLaterIsPickedUp() throws Exception {
        Path file = dir.resolve("rules.yml");
        watch(file);
        assertThat(holder.lastError()).contains("does not exist");
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        awaitRule("a");
    }

    @Test
    void aDirectoryCreatedLaterIsWatchedOnceItExists() throws Exception {
        Path file = dir.resolve("later").resolve("rules.yml");
        watch(file);
        await().atMost(PATIENCE).until(() -> holder.watcher().checks() > 0);
        assertThat(holder.watcher().usesEvents()).isFalse();
        Files.createDirectory(file.getParent());
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        awaitRule("a");
        await().atMost(PATIENCE).until(() -> holder.watcher().usesEvents());
    }

    @Test
    void closingStopsTheDaemonThread() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        RulesWatcher watcher = watch(file).watcher();
        await().atMost(PATIENCE).until(() -> watcher.checks() > 0);
        assertThat(watcher.usesEvents()).isTrue();
        holder.close();
        assertThat(watcher.isClosed()).isTrue();
        assertThat(holder.watcher()).isNull();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("limiter-rules-watcher")
                && t.isAlive());

        Files.writeString(file, RuleSetHolderTest.rules("b", 5));
        // nothing watches any more: an explicit reload is the only way now
        assertThat(holder.current().rule("b")).isNull();
        assertThat(holder.reload()).isTrue();
    }

    @Test
    void aBurstOfWritesIsReadOnceAfterItsLastWrite() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 1));
        holder = RuleSetHolder.open(file);
        // no timed re-check in the middle of the burst: events and their debounce alone decide when to read
        Duration debounce = Duration.ofMillis(500);
        holder.startWatching(Duration.ofMinutes(10), debounce);
        await().atMost(PATIENCE).until(() -> holder.watcher().usesEvents());

        long longestGapNanos = 0;
        long last = System.nanoTime();
        for (int limit = 2; limit <= 21; limit++) { // 20 in-place writes, each a truncate and a write
            Files.writeString(file, RuleSetHolderTest.rules("a", limit));
            LockSupport.parkNanos(2_500_000); // paces the burst to ~50 ms; nothing waits for a condition here
            long now = System.nanoTime();
            longestGapNanos = Math.max(longestGapNanos, now - last);
            last = now;
        }
        // the guarantee holds for writes closer than the debounce time; a stalled machine voids the premise
        assumeTrue(longestGapNanos < debounce.toNanos(), "a write waited longer than the debounce time");

        await().atMost(PATIENCE).until(() -> holder.reloadCount() > 0);
        assertThat(holder.current().rule("a").limiter().config().limit()).isEqualTo(21);
        // and nothing more comes: no trailing reload, and no read of a half-written file in between
        await().during(debounce.multipliedBy(3)).atMost(PATIENCE)
                .until(() -> holder.reloadCount() == 1 && holder.failedReloadCount() == 0);
    }

    @Test
    void constantChurnStillReloadsWithinTheDebounceBound() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 1));
        holder = RuleSetHolder.open(file);
        holder.startWatching(Duration.ofMinutes(10), Duration.ofMillis(50)); // bound: 20 x 50 ms = 1 s
        await().atMost(PATIENCE).until(() -> holder.watcher().usesEvents());

        AtomicInteger written = new AtomicInteger(1);
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        try {
            writer.scheduleAtFixedRate(() -> {
                try {
                    Files.writeString(file, RuleSetHolderTest.rules("a", written.incrementAndGet()));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, 0, 10, TimeUnit.MILLISECONDS);
            // never quiet for 50 ms, yet the file is read while the writes go on (a read may catch a write
            // half-way and fail: that counts as a read too)
            await().atMost(PATIENCE).until(() -> holder.reloadCount() + holder.failedReloadCount() > 0);
        } finally {
            writer.shutdownNow();
            assertThat(writer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        Files.writeString(file, RuleSetHolderTest.rules("a", 1_000));
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(holder.current().rule("a").limiter().config().limit()).isEqualTo(1_000));
    }

    @Test
    void pollingAloneNoticesChangesWithTheSameSizeAndTimestamp() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RuleSetHolderTest.rules("a", 5));
        java.nio.file.attribute.FileTime stamp = Files.getLastModifiedTime(file);
        watch(file);
        Files.writeString(file, RuleSetHolderTest.rules("b", 5));
        Files.setLastModifiedTime(file, stamp);
        awaitRule("b");
    }
}
