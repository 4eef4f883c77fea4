package dev.limiter.demo.service;

import dev.limiter.api.Limit;

/**
 * A pretend outbound client: the exchange rates of a partner whose API allows 20 calls a second and answers
 * "429" to more. Instead of a rules-file entry it carries its limit in code, with {@link Limit} from
 * {@code limiter-api}, the one limiter type the service uses (without the agent the annotation does nothing).
 *
 * <p>{@code onLimit = "wait"}: a call that finds the partner's budget spent waits for the next permit (the
 * calling thread parks) instead of failing, so calls go out evenly at 20 a second; one that would wait longer
 * than {@code maxWait} is rejected at once with {@code RateLimitExceededException}. The convert endpoint catches
 * that and answers without a rate. The JMX rule {@code partner-rates} shows {@code Source: annotation ...} and
 * counts {@code Waited}.
 */
public final class PartnerRatesClient {

    /** The rule id of the annotation (JMX name, and what a rules-file rule uses to override it). */
    public static final String RULE = "partner-rates";

    @Limit(id = RULE, limit = 20, window = "1s", strategy = "token-bucket", capacity = 1, onLimit = "wait",
            maxWait = "250ms")
    public String rate(String currency) {
        long basisPoints = 9_000 + Math.floorMod(currency.hashCode(), 2_000);
        return basisPoints / 10_000 + "." + String.format(java.util.Locale.ROOT, "%04d", basisPoints % 10_000);
    }
}
