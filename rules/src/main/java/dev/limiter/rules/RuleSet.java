package dev.limiter.rules;

import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.match.HttpMethods;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.match.PathTrie;
import dev.limiter.rules.response.ResponseSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One immutable snapshot of the rules file, compiled for the request path.
 *
 * <p>Immutable so that {@link dev.limiter.rules.reload.RuleSetHolder} can publish a new one with a single
 * volatile write and a reader never sees half a reload. Matching methods are allocation-free; callers pass their
 * own (per-thread) output array, sized with {@link #maxHttpMatches()} (or simply {@code rules().size()}).
 */
public final class RuleSet {

    private static final RuleSet EMPTY = new RuleSet(null, List.of(), ResponseSpec.DEFAULT,
            ClientIpResolver.PEER_ONLY, true);

    private final Path source;
    private final List<Rule> rules;
    private final Map<String, Rule> byId;
    private final ResponseSpec response;
    private final ClientIpResolver clientIp;
    private final boolean watch;
    private final MetricsSpec metrics;
    private final PathTrie<Rule> http;
    private final Rule[] methodRules;
    private final Rule[] jaxrsRules;
    private final Rule[] grpcRules;
    /** The {@code http-client:} rules' paths (a rule without paths is under {@code /**}). */
    private final PathTrie<Rule> client;
    private final Rule[] clientRules;
    /** The distinct {@link NameGlob#internalPrefix}es of the class globs of the method and JAX-RS rules. */
    private final String[] classPrefixes;
    private final int httpRuleCount;
    private final Map<String, Integer> lines;

    public RuleSet(Path source, List<Rule> rules, ResponseSpec response, ClientIpResolver clientIp, boolean watch) {
        this(source, rules, response, clientIp, watch, MetricsSpec.NONE, Map.of());
    }

    /**
     * A snapshot that also carries the file's {@code metrics:} section and the line of each rule's entry in the
     * file, by id ({@link #line}).
     */
    public RuleSet(Path source, List<Rule> rules, ResponseSpec response, ClientIpResolver clientIp, boolean watch,
            MetricsSpec metrics, Map<String, Integer> lines) {
        this.lines = Map.copyOf(lines);
        this.source = source;
        this.metrics = metrics == null ? MetricsSpec.NONE : metrics;
        this.rules = List.copyOf(rules);
        this.response = response;
        this.clientIp = clientIp;
        this.watch = watch;
        Map<String, Rule> ids = new LinkedHashMap<>();
        List<Rule> methods = new ArrayList<>();
        List<Rule> jaxrs = new ArrayList<>();
        List<Rule> grpc = new ArrayList<>();
        PathTrie.Builder trie = new PathTrie.Builder();
        PathTrie.Builder clientTrie = new PathTrie.Builder();
        List<Rule> clients = new ArrayList<>();
        Rule[] all = this.rules.toArray(new Rule[0]);
        int httpRules = 0;
        for (Rule rule : all) {
            ids.put(rule.id(), rule);
            switch (rule.target()) {
                case HTTP:
                    httpRules++;
                    for (PathPattern pattern : rule.patterns()) {
                        trie.add(pattern, rule.index());
                    }
                    break;
                case JAXRS:
                    jaxrs.add(rule);
                    break;
                case GRPC:
                    grpc.add(rule);
                    break;
                case HTTP_CLIENT:
                    clients.add(rule);
                    for (PathPattern pattern : rule.patterns().length == 0 ? ANY_PATH : rule.patterns()) {
                        clientTrie.add(pattern, rule.index());
                    }
                    break;
                default:
                    methods.add(rule);
            }
        }
        this.byId = Collections.unmodifiableMap(ids);
        this.http = trie.build(all);
        this.methodRules = methods.toArray(new Rule[0]);
        this.jaxrsRules = jaxrs.toArray(new Rule[0]);
        this.grpcRules = grpc.toArray(new Rule[0]);
        this.clientRules = clients.toArray(new Rule[0]);
        this.client = clientTrie.build(all);
        this.classPrefixes = classPrefixes(methodRules, jaxrsRules);
        this.httpRuleCount = httpRules;
    }

    /** Where an {@code http-client:} rule without paths matches: every path. */
    private static final PathPattern[] ANY_PATH = {PathPattern.compile("/**")};

    /** No rules, default response, no trusted proxies: what runs before a valid file has been read. */
    public static RuleSet empty() {
        return EMPTY;
    }

    /** The file's {@code metrics:} section ({@link MetricsSpec#NONE} when absent). */
    public MetricsSpec metrics() {
        return metrics;
    }

    /** Every rule, in file order. */
    public List<Rule> rules() {
        return rules;
    }

    /** The rule with this id, or null. */
    public Rule rule(String id) {
        return byId.get(id);
    }

    /** The line of the rule's entry in {@link #source()} ({@code - id: ...}), or 0 if unknown. */
    public int line(String id) {
        Integer line = lines.get(id);
        return line == null ? 0 : line;
    }

    public ResponseSpec response() {
        return response;
    }

    public ClientIpResolver clientIp() {
        return clientIp;
    }

    /** The file this set was read from; null for {@link #empty()}. */
    public Path source() {
        return source;
    }

    /** {@code reload.watch}: whether the file is watched for changes. */
    public boolean watch() {
        return watch;
    }

    /** The most rules one HTTP request can match: a sufficient size for {@link #matchHttp}'s array. */
    public int maxHttpMatches() {
        return httpRuleCount;
    }

    /**
     * The HTTP rules that apply to a request, in file order, written into {@code out}.
     *
     * <p>Request path: no allocation, no regex, no locks; one trie walk whatever the number of rules. The path
     * should be the decoded, dot-segment-free path (servlet path plus path info); empty segments and
     * {@code ;matrix} parameters are ignored.
     *
     * @param method the request method, e.g. {@code GET} (case-sensitive)
     * @param path   the request path, e.g. {@code /api/users/42}
     * @param out    receives the matched rules; at most {@code out.length} are written
     * @return how many rules were written
     */
    public int matchHttp(String method, String path, Rule[] out) {
        if (httpRuleCount == 0 || path == null) {
            return 0;
        }
        return http.match(path, HttpMethods.bit(method), out);
    }

    /** Rules with a {@code method:} match (plain Java methods), in file order. */
    public List<Rule> methodRules() {
        return List.of(methodRules);
    }

    /** Rules with a {@code jaxrs:} match, in file order. */
    public List<Rule> jaxrsRules() {
        return List.of(jaxrsRules);
    }

    /** The {@code method:} rules for a class and method name, into {@code out}; allocation-free. */
    public int matchMethod(String className, String methodName, Rule[] out) {
        return match(methodRules, className, methodName, out);
    }

    /** The {@code jaxrs:} rules for a resource class and method name, into {@code out}; allocation-free. */
    public int matchJaxrs(String className, String methodName, Rule[] out) {
        return match(jaxrsRules, className, methodName, out);
    }

    /** Rules with a {@code grpc:} match, in file order. */
    public List<Rule> grpcRules() {
        return List.of(grpcRules);
    }

    /** The most rules one gRPC call can match: a sufficient size for {@link #matchGrpc}'s array. */
    public int maxGrpcMatches() {
        return grpcRules.length;
    }

    /**
     * The {@code grpc:} rules for a call of {@code service} (the full service name, {@code acme.Orders}) and
     * {@code method} (the bare method name, {@code CreateOrder}), in file order, into {@code out}; allocation-free.
     */
    public int matchGrpc(String service, String method, Rule[] out) {
        if (service == null || method == null) {
            return 0;
        }
        return match(grpcRules, service, method, out);
    }

    /** Rules with an {@code http-client:} match, in file order. */
    public List<Rule> clientRules() {
        return List.of(clientRules);
    }

    /** The most rules one outgoing call can match: a sufficient size for {@link #matchClient}'s array. */
    public int maxClientMatches() {
        return clientRules.length;
    }

    /**
     * The {@code http-client:} rules for an outgoing call, in file order, into {@code out}; allocation-free unless
     * {@code host} has upper-case letters. {@code port} is the URI's, -1 if it names none.
     */
    public int matchClient(String method, String scheme, String host, int port, String path, Rule[] out) {
        if (clientRules.length == 0 || host == null) {
            return 0;
        }
        int found = client.match(path == null || path.isEmpty() ? "/" : path, HttpMethods.bit(method), out);
        int kept = 0;
        for (int i = 0; i < found; i++) {
            if (out[i].hostMatch().matches(scheme, host, port)) {
                out[kept++] = out[i];
            }
        }
        for (int i = kept; i < found; i++) {
            out[i] = null;
        }
        return kept;
    }

    /**
     * True if some {@code method:} rule's class glob matches {@code className}: the agent's cheap type test
     * before it looks at a class's methods. Allocation-free.
     */
    public boolean namesMethodClass(String className) {
        return namesClass(methodRules, className);
    }

    /** True if some {@code jaxrs:} rule's class glob matches {@code className}. Allocation-free. */
    public boolean namesJaxrsClass(String className) {
        return namesClass(jaxrsRules, className);
    }

    /**
     * The transformer's first test of every class loaded, on the internal name the JVM gives it ({@code a/b/C}):
     * false means no {@code method:} or {@code jaxrs:} rule names the class, decided without converting the name
     * or running a glob (one {@code startsWith} per distinct literal prefix; most of an application's classes
     * differ from every prefix within a few characters). True means {@link #namesMethodClass} or
     * {@link #namesJaxrsClass} decide. Allocation-free.
     */
    public boolean mayNameInternalClass(String internalName) {
        for (String prefix : classPrefixes) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String[] classPrefixes(Rule[] methods, Rule[] jaxrs) {
        Set<String> prefixes = new LinkedHashSet<>();
        for (Rule[] kind : new Rule[][] {methods, jaxrs}) {
            for (Rule rule : kind) {
                prefixes.add(rule.classGlob().internalPrefix());
            }
        }
        // an empty prefix (a glob that starts wild) admits every name: the others add nothing
        return prefixes.contains("") ? new String[] {""} : prefixes.toArray(new String[0]);
    }

    /** The number of {@code method:} and {@code jaxrs:} rules, to size {@link #matchMethod}'s array. */
    public int maxMethodMatches() {
        return Math.max(methodRules.length, jaxrsRules.length);
    }

    private static boolean namesClass(Rule[] candidates, String className) {
        for (Rule candidate : candidates) {
            if (candidate.classGlob().matches(className)) {
                return true;
            }
        }
        return false;
    }

    private static int match(Rule[] candidates, String className, String methodName, Rule[] out) {
        int count = 0;
        for (int i = 0; i < candidates.length && count < out.length; i++) {
            if (candidates[i].matches(className, methodName)) {
                out[count++] = candidates[i];
            }
        }
        return count;
    }

    @Override
    public String toString() {
        return "RuleSet[" + (source == null ? "empty" : source) + ", " + rules.size() + " rules]";
    }
}
