package dev.limiter.rules;

import dev.limiter.core.KeyPauses;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.match.HostMatch;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.match.PathTrie;
import dev.limiter.rules.response.HeaderText;
import java.util.List;

/**
 * One compiled rule of a {@link RuleSet}: what it matches, what it counts by, and its live limiter.
 *
 * <p>Immutable except for the state it shares with its predecessor across reloads ({@link RuleState}: the
 * limiter, the stats and the run-time mode). Everything the request path needs is precomputed here, e.g. the
 * {@code RateLimit-Policy} header value, or kept once built ({@link HeaderText}: the per-response values), so
 * admitting a request builds no strings once its numbers have been seen.
 */
public final class Rule implements PathTrie.Entry {

    /** What kind of code a rule guards. */
    public enum Target {
        /** Servlet requests, matched on method and path. */
        HTTP,
        /** JAX-RS resource methods, matched on class and method name. */
        JAXRS,
        /** Plain Java methods, matched on class and method name. */
        METHOD,
        /**
         * gRPC calls, matched on the full service name of the {@code .proto} ({@link #classGlob()}) and the method
         * name ({@link #methodGlob()}).
         */
        GRPC,
        /**
         * Calls the service makes to other HTTP servers, matched on host ({@link #hostMatch()}), path and method.
         */
        HTTP_CLIENT
    }

    /** Thrown by plain methods when no {@code throw:} is configured. */
    public static final String DEFAULT_THROW = "dev.limiter.api.RateLimitExceededException";

    private final String id;
    private final int index;
    private final Target target;
    private final List<String> paths;
    private final PathPattern[] patterns;
    private final int methodBits;
    private final List<String> httpMethods;
    private final NameGlob classGlob;
    private final NameGlob methodGlob;
    private final KeySpec key;
    private final Mode fileMode;
    private final OnError onError;
    private final String throwClass;
    private final String matchText;
    private final RuleState state;
    private final Policy policy;
    private final HostMatch hostMatch;
    private final long maxBackoffNanos;

    /** A rule with one limit, its state's limiter, and no conditions (cost 1). */
    public Rule(String id, int index, Target target, List<String> paths, PathPattern[] patterns, int methodBits,
            List<String> httpMethods, NameGlob classGlob, NameGlob methodGlob, KeySpec key, Mode fileMode,
            OnError onError, String throwClass, RuleState state) {
        this(id, index, target, paths, patterns, methodBits, httpMethods, classGlob, methodGlob, key, fileMode,
                onError, throwClass, state, Policy.single(Tier.of(id, "", List.of(state.limiter), state.stats)));
    }

    /** A rule whose limits, overrides, conditions and cost are {@code policy}'s. */
    public Rule(String id, int index, Target target, List<String> paths, PathPattern[] patterns, int methodBits,
            List<String> httpMethods, NameGlob classGlob, NameGlob methodGlob, KeySpec key, Mode fileMode,
            OnError onError, String throwClass, RuleState state, Policy policy) {
        this(id, index, target, paths, patterns, methodBits, httpMethods, classGlob, methodGlob, key, fileMode,
                onError, throwClass, state, policy, null, 0);
    }

    /**
     * An {@code http-client:} rule: also where its calls go ({@code hostMatch}), and the longest pause a
     * {@code Retry-After} answer may impose ({@code maxBackoffNanos}; 0 when {@code Retry-After} is not honoured).
     */
    public Rule(String id, int index, Target target, List<String> paths, PathPattern[] patterns, int methodBits,
            List<String> httpMethods, NameGlob classGlob, NameGlob methodGlob, KeySpec key, Mode fileMode,
            OnError onError, String throwClass, RuleState state, Policy policy, HostMatch hostMatch,
            long maxBackoffNanos) {
        this.hostMatch = hostMatch;
        this.maxBackoffNanos = maxBackoffNanos;
        this.id = id;
        this.index = index;
        this.target = target;
        this.paths = List.copyOf(paths);
        this.patterns = patterns;
        this.methodBits = methodBits;
        this.httpMethods = List.copyOf(httpMethods);
        this.classGlob = classGlob;
        this.methodGlob = methodGlob;
        this.key = key;
        this.fileMode = fileMode;
        this.onError = onError;
        this.throwClass = throwClass == null ? DEFAULT_THROW : throwClass;
        this.state = state;
        this.matchText = describe();
        this.policy = policy;
    }

    private String describe() {
        switch (target) {
            case HTTP:
                return "http " + (httpMethods.isEmpty() ? "*" : String.join(",", httpMethods)) + " "
                        + String.join(" ", paths);
            case JAXRS:
                return "jaxrs " + classGlob + "#" + methodGlob;
            case GRPC:
                return "grpc " + classGlob + "/" + methodGlob;
            case HTTP_CLIENT:
                return "http-client " + (httpMethods.isEmpty() ? "*" : String.join(",", httpMethods)) + " "
                        + hostMatch + (paths.isEmpty() ? "" : " " + String.join(" ", paths));
            default:
                return "method " + classGlob + "#" + methodGlob;
        }
    }

    /** The rule's id, unique in its file; the identity that keeps live state across reloads. */
    public String id() {
        return id;
    }

    /** Position in the file (0-based); matches are reported in this order. */
    @Override
    public int index() {
        return index;
    }

    public Target target() {
        return target;
    }

    /** The path patterns as written (HTTP rules; empty otherwise). */
    public List<String> paths() {
        return paths;
    }

    /** The {@code methods:} as written, empty for "all methods" (HTTP rules). */
    public List<String> httpMethods() {
        return httpMethods;
    }

    PathPattern[] patterns() {
        return patterns;
    }

    /** The {@code methods:} as {@link dev.limiter.rules.match.HttpMethods} bits (all bits for "all methods"). */
    @Override
    public int methodBits() {
        return methodBits;
    }

    /** Class-name glob of JAX-RS and method rules, the service-name glob of gRPC rules; null for HTTP rules. */
    public NameGlob classGlob() {
        return classGlob;
    }

    /** Method-name glob of JAX-RS and method rules ({@code *} when not given); null for HTTP rules. */
    public NameGlob methodGlob() {
        return methodGlob;
    }

    /** True if a JAX-RS or method rule applies to this class and method (names only, no class loading). */
    public boolean matches(String className, String methodName) {
        return classGlob != null && classGlob.matches(className) && methodGlob.matches(methodName);
    }

    public KeySpec key() {
        return key;
    }

    /** The mode in force: a run-time override if one was set, else the file's. Volatile read. */
    public Mode mode() {
        Mode override = state.modeOverride();
        return override != null ? override : fileMode;
    }

    /** The mode the file gives. */
    public Mode fileMode() {
        return fileMode;
    }

    /**
     * Switches the rule between enforce and dry-run at run time (JMX), or back to the file's mode with null.
     * The override survives reloads that keep the rule and do not change its {@code mode:} in the file.
     */
    public void setMode(Mode override) {
        state.modeOverride(override);
    }

    public OnError onError() {
        return onError;
    }

    /** The live limiter, shared with the previous snapshot's rule of the same id and strategy. */
    public KeyedLimiter limiter() {
        return state.limiter;
    }

    public RuleStats stats() {
        return state.stats;
    }

    /** Keys the limiter holds at most (oldest idle keys are evicted beyond it). */
    public int maxKeys() {
        return state.maxKeys;
    }

    /** Where the rule's state lives: {@link StoreSpec#LOCAL} or the file's Redis store. */
    public StoreSpec store() {
        return state.store;
    }

    /** The strategy name as resolved ({@code token-bucket}, or a custom SPI name). */
    public String strategyName() {
        return state.strategyName;
    }

    /** What the rule matches, for logs and JMX, e.g. {@code http GET,POST /api/**}. */
    public String matchText() {
        return matchText;
    }

    /** Exception class plain methods throw when rejected ({@link #DEFAULT_THROW} unless {@code throw:} says). */
    public String throwClass() {
        return throwClass;
    }

    /**
     * The IETF draft {@code RateLimit-Policy} value of the rule's own limits, e.g. {@code "api-per-ip";q=100;w=1};
     * precomputed.
     */
    public String policyHeader() {
        return headerText().policy();
    }

    /** The (first) limit as text for {@code X-RateLimit-Limit}; precomputed. */
    public String limitText() {
        return headerText().limit();
    }

    /**
     * The response header values of the rule's first own limit: the precomputed policy and limit, and the
     * per-response values sent, kept so admitted requests build no strings. A call's binding limit may be
     * another ({@link Policy}): the decision reports which.
     */
    public HeaderText headerText() {
        return policy.main().text(0);
    }

    /** The limits, overrides, conditions and cost. */
    public Policy policy() {
        return policy;
    }

    /**
     * The path segment captured as {@code {name}} for a {@code path-param:name} key, or null if no pattern of
     * this rule captures it from {@code path}. Allocates the returned substring (only rules keyed on path
     * parameters pay for it).
     */
    public String pathParam(String path) {
        if (key.kind() != KeySpec.Kind.PATH_PARAM) {
            return null;
        }
        for (PathPattern pattern : patterns) {
            String value = pattern.capture(path, key.name());
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    public RuleState state() {
        return state;
    }

    /** Where an {@code http-client:} rule's calls go; null for every other kind. */
    public HostMatch hostMatch() {
        return hostMatch;
    }

    /**
     * True if a {@code 429} or {@code 503} answer with {@code Retry-After} pauses the answered call's key
     * ({@code honor-retry-after: true}, {@code http-client:} rules).
     */
    public boolean honorsRetryAfter() {
        return maxBackoffNanos > 0;
    }

    /** The longest pause a {@code Retry-After} answer imposes ({@code max-backoff}); 0 if not honoured. */
    public long maxBackoffNanos() {
        return maxBackoffNanos;
    }

    /** The keys paused by {@code Retry-After} answers; kept across reloads with the rule's state. */
    public KeyPauses pauses() {
        return state.pauses();
    }

    /** How many keys {@code Retry-After} answers pause now (0 for a rule that never had one). */
    public int pausedKeys() {
        return state.pausedKeys();
    }

    @Override
    public String toString() {
        return id + " (" + matchText + ", key " + key + ", " + state.strategyName + " "
                + state.limiter.config().limit() + "/" + state.limiter.config().windowMillis() + "ms, "
                + mode().spelling() + ")";
    }
}
