package idleapp;

/**
 * A program that weaves nothing: it waits until the agent's rules are in force (the bridge's servlet delegate is
 * the real one, no longer the start-up stand-in), then a moment for the agent's other threads, and prints READY.
 */
public final class IdleMain {

    private IdleMain() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> bridge = Class.forName("dev.limiter.bootstrap.LimiterBridge");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            Object delegate = bridge.getMethod("delegate").invoke(null);
            if (delegate != null && !delegate.getClass().getSimpleName().startsWith("Pending")) {
                Thread.sleep(500);
                System.out.println("READY");
                return;
            }
            Thread.sleep(20);
        }
        System.out.println("the rules never came");
    }
}
