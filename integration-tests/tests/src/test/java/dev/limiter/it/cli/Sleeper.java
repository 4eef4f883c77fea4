package dev.limiter.it.cli;

/** A JVM that only waits, to be pointed at: prints {@code READY} once its main runs, then sleeps until killed. */
public final class Sleeper {

    private Sleeper() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(600_000);
    }
}
