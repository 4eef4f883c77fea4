package dev.limiter.agent.method;

import dev.limiter.agent.RuleVerdict;
import dev.limiter.agent.ThrottledLog;
import dev.limiter.agent.jaxrs.JaxrsRejection;
import dev.limiter.agent.servlet.ServletKeys;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The decision for woven methods: take a permit from every rule of the site, and either let the call run or
 * hand back the rejection the woven code throws.
 *
 * <p>The same contract as the servlet decision: rules read from the current snapshot on every call (a reload
 * needs no re-weaving to change limits, and a removed rule is gone at once), {@code dry-run} counts would-be
 * rejections, a failing rule or a key that cannot be had here is counted in the rule's {@code errors}, logged
 * at most every few seconds and resolved by its {@code on-error}. Concurrency permits are held until the
 * method exits ({@link MethodScratch}). The kill switch is the bridge's.
 *
 * <p>Allowed path: no locks, no logging, no string building; the per-thread buffers and the site's cached
 * rules are reused, so a call keyed on a {@code String} argument allocates nothing.
 */
public final class MethodLimiter implements MethodDelegate {

    /** A subclass, not {@code withInitial(MethodScratch::new)}: no lambda to spin while the application starts. */
    private static final ThreadLocal<MethodScratch> SCRATCH = new ThreadLocal<>() {
        @Override
        protected MethodScratch initialValue() {
            return new MethodScratch();
        }
    };

    private final RuleSetHolder holder;
    private final ThrottledLog log;

    public MethodLimiter(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
    }

    @Override
    public Object onMethodEnter(int siteId, Object keyArgument) {
        WovenSite site = WovenSites.get(siteId);
        if (site == null) {
            return null;
        }
        SiteRules rules = site.rules(holder.current());
        int count = rules.rules.length;
        if (count == 0) {
            return null;
        }
        MethodScratch scratch = SCRATCH.get();
        int base = scratch.held;
        long[] out = scratch.out;
        for (int i = 0; i < count; i++) {
            Rule rule = rules.rules[i];
            boolean enforce = rule.mode() == Mode.ENFORCE;
            KeyedLimiter limiter;
            String key;
            boolean admitted;
            try {
                limiter = rule.limiter();
                key = key(rules, i, keyArgument);
                if (key == null) {
                    rule.stats().errors().increment();
                    log.warn(rules.missingKey[i], null);
                    if (rule.onError() == OnError.REJECT && enforce) {
                        scratch.releaseTo(base);
                        return failed(site, rules, rule, out);
                    }
                    continue;
                }
                admitted = limiter.tryAcquire(key, out);
            } catch (Throwable t) {
                rule.stats().errors().increment();
                if (rule.onError() == OnError.REJECT && enforce) {
                    log.warn("limiter: rule " + rule.id() + " failed at " + site.describe()
                            + "; the call is rejected (on-error: reject)", t);
                    scratch.releaseTo(base);
                    return failed(site, rules, rule, out);
                }
                log.warn("limiter: rule " + rule.id() + " failed at " + site.describe()
                        + "; the call is allowed (on-error: allow)", t);
                continue;
            }
            int verdict = RuleVerdict.count(rule, enforce, admitted, key);
            if (verdict == RuleVerdict.REJECTED) {
                scratch.releaseTo(base);
                return rejection(site, rules, rule, out);
            }
            if (verdict == RuleVerdict.ADMITTED && limiter.strategy().releasesOnExit()) {
                scratch.hold(limiter, key);
            }
        }
        return scratch.held > base ? scratch.mark(base) : null;
    }

    /** The key of rule {@code i}, or null if it cannot be had at this site or on this thread. */
    private static String key(SiteRules rules, int i, Object keyArgument) throws Throwable {
        switch (rules.keySource[i]) {
            case SiteRules.GLOBAL:
                return "";
            case SiteRules.ARGUMENT:
                return String.valueOf(keyArgument);
            case SiteRules.REQUEST:
                Object request = LimiterBridge.currentRequest();
                return request == null ? null : ServletKeys.key(rules.rules[i], rules.set, request);
            default:
                return null;
        }
    }

    /** A rejection because the rule failed and its {@code on-error} is {@code reject}: retry after a second. */
    private Throwable failed(WovenSite site, SiteRules rules, Rule rule, long[] out) {
        Outcome.reject(out, 0, System.currentTimeMillis() + 1000, 1000, 0); // on-error: reject, retry in 1 s
        return rejection(site, rules, rule, out);
    }

    /**
     * What the woven method throws: for JAX-RS a {@code WebApplicationException} carrying the 429 response of
     * the rules' {@code response:} section, for plain methods the rule's exception. If the JAX-RS response cannot
     * be built, the call is still rejected, with {@code RateLimitExceededException} (logged, throttled).
     */
    private Throwable rejection(WovenSite site, SiteRules rules, Rule rule, long[] out) {
        if (site.kind.jaxrs()) {
            try {
                return JaxrsRejection.create(site.loader(), site.kind.namespace(), rules.set.response(), rule, out);
            } catch (Throwable t) {
                log.warn("limiter: could not build the JAX-RS rejection of rule " + rule.id() + " at "
                        + site.describe() + "; throwing " + Rule.DEFAULT_THROW + " instead", t);
                return new RateLimitExceededException(rule.id(), out[Outcome.RETRY_AFTER_MILLIS]);
            }
        }
        return ThrowableFactory.create(site, rule, out[Outcome.RETRY_AFTER_MILLIS]);
    }

    @Override
    public void onMethodExit(int siteId, Object token) {
        if (token instanceof MethodScratch.Mark mark) {
            mark.owner.releaseTo(mark.height);
        }
    }

    /** For woven {@code ExceptionMapper.toResponse}: our 429 response if {@code exception} is our rejection. */
    @Override
    public Object rejectionResponse(Object exception) {
        return JaxrsRejection.responseOf(exception);
    }
}
