package dev.limiter.it.app.boot;

import jakarta.annotation.PostConstruct;
import org.springframework.stereotype.Component;

/**
 * A bean that calls a method of its own while Spring creates it ({@code @PostConstruct}), before the server
 * listens: what an application does when it warms up a client or loads reference data as it starts. With
 * {@code -Dlimiter.it.startupCalls=N} it calls {@link #fetch} N times in a row and prints
 * {@code STARTUP CALLS: OK REJ ... in <ms> ms} (REJ: the agent's {@code RateLimitExceededException}); the agent's
 * tests name {@code fetch} in a {@code method:} rule. Without the property it does nothing.
 */
@Component
class StartupClient {

    private static final String REJECTION = "dev.limiter.api.RateLimitExceededException";

    @PostConstruct
    void warmUp() {
        int calls = Integer.getInteger("limiter.it.startupCalls", 0);
        if (calls == 0) {
            return;
        }
        StringBuilder out = new StringBuilder("STARTUP CALLS:");
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            try {
                fetch(i);
                out.append(" OK");
            } catch (RuntimeException e) {
                if (!e.getClass().getName().equals(REJECTION)) {
                    throw e;
                }
                out.append(" REJ");
            }
        }
        out.append(" in ").append((System.nanoTime() - started) / 1_000_000).append(" ms");
        System.out.println(out);
        System.out.flush();
    }

    String fetch(int item) {
        return "item " + item;
    }
}
