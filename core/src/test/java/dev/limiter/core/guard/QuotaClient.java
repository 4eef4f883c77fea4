package dev.limiter.core.guard;

// doc:start
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.strategy.Strategy;
import java.util.concurrent.TimeUnit;

/** Calls a partner API that allows 10 calls a second in all, and 100 a minute per customer. */
public final class QuotaClient {

    private final Limit partner;
    private final KeyedLimiter perCustomer;

    public QuotaClient(Guard guard) {
        // register once: the only step that allocates
        this.partner = guard.limit("partner-api", 10, 1, TimeUnit.SECONDS);
        this.perCustomer = guard.keyed("partner-api-per-customer", Strategy.FIXED_WINDOW,
                LimitConfig.of(100, 60_000), 100_000);
    }

    /** The partner's answer, or a refusal that says when to retry. */
    public String call(String customer) {
        long[] out = Outcome.newArray(); // or keep one per thread
        if (!perCustomer.tryAcquire(customer, out)) {
            return "slow down, retry in " + Outcome.retryAfterSeconds(out) + "s";
        }
        if (!partner.tryAcquire(out)) {
            return "busy, retry in " + out[Outcome.RETRY_AFTER_MILLIS] + "ms";
        }
        return "called for " + customer;
    }
}
// doc:end
