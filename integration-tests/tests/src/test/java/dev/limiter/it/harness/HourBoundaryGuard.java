package dev.limiter.it.harness;

import java.time.Duration;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Most scenarios count exactly against {@code window: 1h} fixed windows, which the limiter aligns to the epoch: a
 * test method that runs across the top of an hour sees its window reset halfway and an expected 429 become a
 * 200. Registered for every test (autodetected through {@code META-INF/services}), this makes a method that would
 * start in the last {@link #MARGIN} of an hour wait until the next hour has begun. A build crossing an hour waits
 * once, at most that long; one that does not, never.
 */
public final class HourBoundaryGuard implements BeforeEachCallback {

    /** Longer than any single scenario method takes on a loaded 2-core machine. */
    static final Duration MARGIN = Duration.ofSeconds(75);

    @Override
    public void beforeEach(ExtensionContext context) {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), MARGIN);
    }
}
