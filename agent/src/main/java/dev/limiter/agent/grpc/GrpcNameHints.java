package dev.limiter.agent.grpc;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.match.NameGlob;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Says, once, when a {@code grpc:} rule can never match because it names a service or method the way Java code does
 * rather than the way the {@code .proto} does: {@code io.grpc.examples.helloworld.Greeter} for the service
 * {@code helloworld.Greeter}, {@code sayHello} for the method {@code SayHello}. Such a rule passes validation (the
 * file alone cannot tell) and would otherwise let every call through without a word; the calls the server really
 * gets name what exists, so the first call that no rule matches is compared with the rules that come close.
 *
 * <p>Runs only for calls no rule matched, once per method name and rule set, and logs once per rule and method.
 */
final class GrpcNameHints {

    /** Calls already looked at, per rule set: at most this many method names are remembered. */
    private static final int MAX_REMEMBERED = 1024;

    private final ConcurrentHashMap<String, Boolean> seen = new ConcurrentHashMap<>();
    private volatile RuleSet seenFor;

    /**
     * Compares the unmatched call of {@code service}/{@code method} ({@code full}: the descriptor's
     * {@code service/method}) with {@code rules}' gRPC rules, once.
     */
    void unmatched(RuleSet rules, String full, String service, String method) {
        if (rules.maxGrpcMatches() == 0 || service == null || method == null) {
            return;
        }
        if (seenFor != rules) {
            seen.clear();
            seenFor = rules;
        }
        if (seen.containsKey(full) || seen.size() >= MAX_REMEMBERED || seen.putIfAbsent(full, Boolean.TRUE) != null) {
            return;
        }
        for (Rule rule : rules.grpcRules()) {
            String hint = hint(rule, service, method);
            if (hint != null) {
                try {
                    // not the throttled log: a once-only message must not be dropped behind another warning
                    Logger.getLogger("dev.limiter").warning(hint);
                } catch (Throwable ignored) {
                    // logging must never hurt the call
                }
            }
        }
    }

    /**
     * Why {@code rule} does not match a call of {@code service}/{@code method} although it was surely meant to, or
     * null: its service or method is written as Java names them while the rest matches.
     */
    static String hint(Rule rule, String service, String method) {
        NameGlob services = rule.classGlob();
        NameGlob methods = rule.methodGlob();
        boolean serviceMatches = services.matches(service);
        boolean methodMatches = methods.matches(method);
        if (serviceMatches && methodMatches) {
            return null;
        }
        boolean serviceClose = serviceMatches || services.isExact() && sameLastSegment(services.pattern(), service);
        boolean methodClose = methodMatches || methods.isExact() && methods.pattern().equalsIgnoreCase(method);
        if (!serviceClose || !methodClose) {
            return null;
        }
        return "limiter: grpc rule " + rule.id() + " (" + rule.matchText() + ") matches no call of " + service + "/"
                + method + ", which the server has: gRPC rules name the .proto's full service name (package.Service)"
                + " and method (as in the .proto, usually UpperCamel), not the Java class or method; did you mean"
                + " service: " + service + ", method: " + method + "?";
    }

    /** True if {@code a} and {@code b} differ but end in the same dot-separated segment. */
    private static boolean sameLastSegment(String a, String b) {
        return !a.equals(b) && a.substring(a.lastIndexOf('.') + 1).equals(b.substring(b.lastIndexOf('.') + 1));
    }
}
