package startwindow;

import dev.limiter.api.Limit;
import dev.limiter.api.RateLimitExceededException;

/**
 * Run by {@code StartWindowJarLayoutTest} with the packaged agent: a batch program that calls a limited method of
 * its own class in a tight loop as soon as {@code main} starts, while the agent is still parsing its rules file.
 * {@code main(which, calls)}: {@code work} (named by the test's {@code method:} rule), {@code annotated} or
 * {@code annotated-wait} ({@code @Limit}); prints {@code <which>: OK REJ ... in <ms> ms}.
 */
public final class EarlyCalls {

    private static int count;

    private EarlyCalls() {
    }

    static void work() {
        count++;
    }

    @Limit(id = "early-annotated", limit = 1, window = "1h")
    static void annotated() {
        count++;
    }

    @Limit(id = "early-annotated-wait", limit = 5, window = "1s", strategy = "leaky-bucket", capacity = 1,
            onLimit = "wait", maxWait = "10s")
    static void annotatedWait() {
        count++;
    }

    public static void main(String[] args) {
        String which = args[0];
        int calls = Integer.parseInt(args[1]);
        Unnamed.touch(); // a class of the same package that no rule names: it must not wait for the rules
        StringBuilder out = new StringBuilder(which).append(':');
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            try {
                switch (which) {
                    case "work" -> work();
                    case "annotated" -> annotated();
                    case "annotated-wait" -> annotatedWait();
                    default -> throw new IllegalArgumentException(which);
                }
                out.append(" OK");
            } catch (RateLimitExceededException e) {
                out.append(" REJ");
            }
        }
        out.append(" in ").append((System.nanoTime() - started) / 1_000_000).append(" ms");
        System.out.println(out);
    }
}
