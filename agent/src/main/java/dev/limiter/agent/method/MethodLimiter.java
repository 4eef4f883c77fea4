package dev.limiter.agent.method;

import dev.limiter.agent.decision.CallGate;
import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.decision.RequestKeys;
import dev.limiter.agent.decision.Waiting;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.jaxrs.JaxrsRejection;
import dev.limiter.api.RateLimitExceededException;
import dev.limiter.bootstrap.MethodDelegate;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import dev.limiter.rules.response.HeaderText;
import java.util.logging.Logger;

/**
 * The woven-method adapter of the decision: run the {@link Decider} over the rules of the site, and either let
 * the call run or hand back the rejection the woven code throws.
 *
 * <p>Rules are read from the current snapshot on every call (a reload needs no re-weaving to change limits, and
 * a removed rule is gone at once). A key that cannot be had at this site (another argument was woven, no servlet
 * request on the thread) is a failure of its rule, resolved by its {@code on-error}. Concurrency permits are held
 * until the method exits ({@link MethodScratch.Mark}). The kill switch is the bridge's.
 *
 * <p>A rule with {@code on-limit: wait} reserves its permit for the time it accrues; after the decision the
 * calling thread parks until then ({@link Waiting}), at most the rule's {@code max-wait}. An interrupt ends the
 * wait at once: the reservations are given back and the call is rejected, with the interrupt flag set again.
 *
 * <p>Allowed path: no locks, no logging, no string building; the per-thread buffers and the site's cached
 * rules are reused, so a call keyed on a {@code String} argument allocates nothing.
 */
public final class MethodLimiter extends CallGate<MethodScratch> implements MethodDelegate {


    private final RequestKeys requestKeys;

    /** {@code requestKeys} reads keys such as {@code ip} from the HTTP request the call runs in, if any. */
    public MethodLimiter(RuleSetHolder holder, ThrottledLog log, RequestKeys requestKeys) {
        super(holder, log);
        this.requestKeys = requestKeys;
    }

    @Override
    protected MethodScratch newBuffers() {
        return new MethodScratch();
    }

    @Override
    public Object onMethodEnter(int siteId, Object keyArgument, long cost) {
        WovenSite site = WovenSites.get(siteId);
        if (site == null) {
            return null;
        }
        SiteRules rules = site.rules(holder.current());
        if (rules.rules.length == 0) {
            return null;
        }
        MethodScratch scratch = buffers();
        int base = scratch.permits.height();
        scratch.begin(site, rules, keyArgument, cost, requestKeys);
        Rule rejecting;
        try {
            rejecting = decider.decide(rules.rules, rules.rules.length, scratch);
        } finally {
            scratch.end();
        }
        if (scratch.askedWithoutRequest && site.kind.jaxrs() && !site.warnedNoRequest) {
            warnNoRequest(site, rules);
        }
        if (rejecting != null) {
            return rejection(site, rules, rejecting, scratch.out, scratch.rejectText);
        }
        Rule interrupted = Waiting.awaitReserved(scratch, base);
        if (interrupted != null) { // the reserved permits went back; the interrupt stays visible
            return rejection(site, rules, interrupted, scratch.out, interrupted.headerText());
        }
        return scratch.permits.height() > base ? scratch.mark(base) : null;
    }

    /**
     * Says once per resource method that its rules' request conditions found no servlet request: a JAX-RS runtime
     * not on a servlet container (Jersey on the JDK HTTP server, say) hands the agent no request, so there a
     * condition never holds. Plain methods are left alone: one called outside a request is normal for them.
     */
    private void warnNoRequest(WovenSite site, SiteRules rules) {
        site.warnedNoRequest = true;
        StringBuilder ids = new StringBuilder();
        for (Rule rule : rules.rules) {
            if (rule.policy().conditional() || rule.policy().hasOverrides()) {
                ids.append(ids.length() == 0 ? "" : ", ").append(rule.id());
            }
        }
        try {
            // not the throttled log: a once-only message must not be dropped behind another warning
            Logger.getLogger("dev.limiter").warning("limiter: the request conditions (headers, ips,"
                    + " principal-roles) of rule " + ids + " at " + site.describe() + " found no servlet request on"
                    + " the thread: this JAX-RS runtime does not run on a servlet container, so they never hold here"
                    + " (a match condition rules every call out, an 'unless' exempts nobody, an override's 'when'"
                    + " never applies); said once per resource method");
        } catch (Throwable ignored) {
            // logging must never hurt the call
        }
    }

    /**
     * What the woven method throws: for JAX-RS a {@code WebApplicationException} carrying the 429 response of
     * the rules' {@code response:} section, for plain methods the rule's exception. If the JAX-RS response cannot
     * be built, the call is still rejected, with {@code RateLimitExceededException} (logged, throttled).
     */
    private Throwable rejection(WovenSite site, SiteRules rules, Rule rule, long[] out, HeaderText text) {
        if (site.kind.jaxrs()) {
            try {
                return JaxrsRejection.create(site.loader(), site.kind.namespace(), rules.set.response(), rule, text,
                        out);
            } catch (Throwable t) {
                log.warn(Warning.RENDERING,
                        "limiter: could not build the JAX-RS rejection of rule " + rule.id() + " at "
                        + site.describe() + "; throwing " + Rule.DEFAULT_THROW + " instead", t);
                return new RateLimitExceededException(rule.id(), out[Outcome.RETRY_AFTER_MILLIS]);
            }
        }
        return ThrowableFactory.create(site, rule, out[Outcome.RETRY_AFTER_MILLIS]);
    }

    @Override
    public void onMethodExit(int siteId, Object token) {
        if (token instanceof MethodScratch.Mark mark) {
            mark.owner.permits.releaseTo(mark.height);
        }
    }

    /** For woven {@code ExceptionMapper.toResponse}: our 429 response if {@code exception} is our rejection. */
    @Override
    public Object rejectionResponse(Object exception) {
        return JaxrsRejection.responseOf(exception);
    }
}
