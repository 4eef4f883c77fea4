package benchtarget;

import dev.limiter.api.Limit;

/**
 * The application class {@code MethodCallBenchmark} has the agent weave: every method does the same small work
 * (counts a reservation), so what differs between them is the check woven in (or none). Outside
 * {@code dev.limiter.}, whose classes the agent never weaves.
 */
public class Inventory implements Stock {

    private long reserved;

    @Override
    public long reserve() {
        return ++reserved;
    }

    @Override
    public long reserveFor(String customer) {
        return ++reserved;
    }

    @Override
    @Limit(id = "reserve-annotated", limit = 1_000_000_000, window = "1s", strategy = "token-bucket")
    public long reserveAnnotated() {
        return ++reserved;
    }

    @Override
    public long unlimited() {
        return ++reserved;
    }

    @Override
    public long probe() {
        return ++reserved;
    }

    @Override
    @Limit(id = "probe-annotated", limit = 1, window = "1d")
    public long probeAnnotated() {
        return ++reserved;
    }
}
