package dev.limiter.it.harness;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/**
 * Exact-count tests against fixed windows must not straddle a window boundary: a reset in the middle would turn
 * an expected 429 into a 200. If windows are aligned to the epoch (the usual fixed-window implementation) and
 * the current one ends within {@code margin}, wait until the next one has begun. Costs nothing otherwise.
 */
public final class WindowGuard {

    private WindowGuard() {
    }

    public static void awaitRoomInWindow(Duration window, Duration margin) {
        long windowMillis = window.toMillis();
        long latestStart = windowMillis - margin.toMillis();
        await("the current " + window + " window has " + margin + " left")
                .atMost(margin.plusSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> System.currentTimeMillis() % windowMillis < latestStart);
    }
}
