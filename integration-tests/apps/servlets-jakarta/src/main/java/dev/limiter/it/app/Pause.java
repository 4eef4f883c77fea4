package dev.limiter.it.app;

/** Sleeps that keep the interrupt flag; the slow endpoints' only way to take time without a gate. */
final class Pause {

    private Pause() {
    }

    static void millis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
