package dev.limiter.agent.grpc;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.http.ClientAddress;
import dev.limiter.agent.http.HttpKeys;
import dev.limiter.agent.http.PeerCache;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * Per-thread buffers for one gRPC call's decision (a server thread starts many calls, one at a time), reused so
 * that an allowed call for an existing key allocates nothing on the agent's side: the rules matching the last
 * method (kept while the same {@code MethodDescriptor} and rule set come back: grpc-java keeps one descriptor per
 * method), the peer's address text (kept for the next call from the same address), the trailer writer, and what
 * every decision keeps ({@link Call}).
 */
final class GrpcCallScratch extends Call {

    private Rule[] matched = new Rule[4];
    private Object lastDescriptor;
    private RuleSet lastRules;
    private int lastCount;

    private final PeerCache peers = new PeerCache();

    final GrpcTrailers trailers = new GrpcTrailers();

    /** The call being decided: set by {@link #begin}, cleared by {@link #end}. */
    private RuleSet rules;
    private GrpcApi api;
    private Object call;
    private Object headers;

    /** The rules matching the method of {@code descriptor} into {@link #matched()}; their count. */
    int match(RuleSet rules, GrpcApi api, Object descriptor, GrpcNameHints hints) throws Throwable {
        if (rules == lastRules && descriptor == lastDescriptor) {
            return lastCount;
        }
        if (matched.length < rules.maxGrpcMatches()) {
            matched = new Rule[rules.maxGrpcMatches()];
        }
        lastRules = null; // not valid while matched[] is being overwritten
        String service = api.serviceName(descriptor);
        String full = api.fullName(descriptor);
        String method = service == null || full.length() <= service.length() ? null
                : full.substring(service.length() + 1);
        int count = rules.matchGrpc(service, method, matched);
        if (count == 0) {
            hints.unmatched(rules, full, service, method);
        }
        lastDescriptor = descriptor;
        lastCount = count;
        lastRules = rules;
        return count;
    }

    /** The rules of the last {@link #match}. */
    Rule[] matched() {
        return matched;
    }

    /** The call being decided (the key reader's view of it is {@link GrpcApi}'s). */
    Object call() {
        return call;
    }

    /** The metadata of the call being decided. */
    Object headers() {
        return headers;
    }

    void begin(RuleSet rules, GrpcApi api, Object call, Object headers) {
        this.rules = rules;
        this.api = api;
        this.call = call;
        this.headers = headers;
    }

    /** Drops the call (the matches and the address text stay): a thread's buffers never keep a call. */
    void end() {
        rules = null;
        api = null;
        call = null;
        headers = null;
        bindingRule = null;
    }

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        return HttpKeys.key(rule, rules, api, this, null, peers);
    }

    /** A condition's header ({@code headers:}): the call's metadata entry of that name. */
    @Override
    public String header(String name) throws Throwable {
        return api.header(this, name);
    }

    /** A condition's client address, after the trusted proxies. */
    @Override
    public String clientAddress() throws Throwable {
        return ClientAddress.of(rules.clientIp(), api, this, peers);
    }

    // isUserInRole stays false: grpc-java has no user before the service runs (docs/rules.md)

    @Override
    protected String missingKey(Rule rule, int index) {
        return HttpKeys.missing(rule, api);
    }

    @Override
    protected String where() {
        return "";
    }

    @Override
    protected String noun() {
        return "call";
    }
}
