package waittest;

import dev.limiter.api.Limit;

/** Methods whose rules wait for a permit: one named by the rules file, one annotated. */
public class Pacer {

    /** Limited by the rules file's {@code wait-file} rule (token bucket, 10/s, burst 1, max-wait 250ms). */
    public String paced(String key) {
        return "ran " + key;
    }

    /** Limited by the rules file's {@code wait-slow} rule (token bucket, 1 per 2 s, max-wait 3s). */
    public String slow(String key) {
        return "slow " + key;
    }

    /** Annotations run on the system clock: one per second, so the second call waits about a second. */
    @Limit(id = "wait-anno", limit = 1, window = "1s", strategy = "leaky-bucket", capacity = 1, onLimit = "wait",
            maxWait = "2s")
    public String annotated() {
        return "annotated";
    }
}
