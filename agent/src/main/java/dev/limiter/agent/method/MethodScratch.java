package dev.limiter.agent.method;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.decision.RequestKeys;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.LimitConfig;
import dev.limiter.rules.Rule;
import java.util.Arrays;

/**
 * Per-thread state of the checks of woven methods: the call being decided (its site's rules and key argument),
 * and the {@link Mark}s over the thread's stack of held permits ({@link Call#permits}).
 *
 * <p>A woven method that takes permits returns a {@link Mark} of the stack height before its push; its exit
 * releases down to that height. Nested woven methods on one thread therefore each give back exactly their own
 * permits, normally or by exception. Marks are created once per height and reused, so a steady state allocates
 * nothing. Only its own thread touches an instance.
 */
final class MethodScratch extends Call {

    /** Yes: the method adapter parks the caller before the method body runs ({@code Waiting.park}). */
    @Override
    protected boolean parksAfterDecision() {
        return true;
    }

    private static final Mark[] NO_MARKS = new Mark[0];

    private Mark[] marks = NO_MARKS;

    /** The call being decided: set by {@link #begin}, cleared by {@link #end}. */
    private WovenSite site;
    private SiteRules rules;
    private Object keyArgument;
    private long cost;
    private RequestKeys requestKeys;
    /** Set when a condition of this decision asked for the HTTP request and the thread had none. */
    boolean askedWithoutRequest;

    /** {@code cost} is the woven cost argument's value, as the woven code passed it ({@link SiteToWeave#costIndex}). */
    void begin(WovenSite site, SiteRules rules, Object keyArgument, long cost, RequestKeys requestKeys) {
        this.site = site;
        this.rules = rules;
        this.keyArgument = keyArgument;
        this.cost = cost;
        this.requestKeys = requestKeys;
        this.askedWithoutRequest = false;
    }

    /** Drops the call's references, so a thread's buffers never keep an argument alive. */
    void end() {
        site = null;
        rules = null;
        keyArgument = null;
        requestKeys = null;
    }

    /** The token for a method whose permits sit above {@code height}. */
    Mark mark(int height) {
        if (height >= marks.length) {
            marks = Arrays.copyOf(marks, Math.max(height + 4, marks.length * 2));
        }
        Mark mark = marks[height];
        if (mark == null) {
            mark = new Mark(this, height);
            marks[height] = mark;
        }
        return mark;
    }

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        switch (rules.keySource[index]) {
            case SiteRules.GLOBAL:
                return "";
            case SiteRules.ARGUMENT:
                return String.valueOf(keyArgument);
            case SiteRules.REQUEST:
                Object request = LimiterBridge.currentRequest();
                return request == null ? null : requestKeys.key(rule, rules.set, request);
            default:
                return null;
        }
    }

    /**
     * The woven cost argument's value, at least 1 (a call always takes a permit: 0, negative numbers, an empty or
     * null array or collection count as 1) and at most {@link LimitConfig#MAX_LIMIT} (a larger long saturates;
     * either way more than any limit holds, so the call is rejected and takes nothing).
     */
    @Override
    protected long argumentCost() {
        return cost < 1 ? 1 : Math.min(cost, LimitConfig.MAX_LIMIT);
    }

    /** Conditions read the HTTP request this call runs in (a JAX-RS resource method's, say), if there is one. */
    @Override
    public String header(String name) throws Throwable {
        Object request = LimiterBridge.currentRequest();
        if (request == null) {
            askedWithoutRequest = true;
            return null;
        }
        return requestKeys.header(request, name);
    }

    @Override
    public String clientAddress() throws Throwable {
        Object request = LimiterBridge.currentRequest();
        if (request == null) {
            askedWithoutRequest = true;
            return null;
        }
        return requestKeys.clientAddress(rules.set, request);
    }

    @Override
    public boolean isUserInRole(String role) throws Throwable {
        Object request = LimiterBridge.currentRequest();
        if (request == null) {
            askedWithoutRequest = true;
            return false;
        }
        return requestKeys.isUserInRole(request, role);
    }

    @Override
    protected String missingKey(Rule rule, int index) {
        return rules.missingKey[index];
    }

    @Override
    protected String where() {
        return " at " + site.describe();
    }

    @Override
    protected String noun() {
        return "call";
    }

    /** The token a woven method's exit hands back: whose stack, and down to which height to release. */
    static final class Mark {

        final MethodScratch owner;
        final int height;

        Mark(MethodScratch owner, int height) {
            this.owner = owner;
            this.height = height;
        }
    }
}
