package dev.limiter.rules.compile;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.MetricsSpec;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.response.ResponseSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.YamlNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the positioned YAML tree into a {@link RuleSet}: checks every value, reports every problem with its
 * position, and only when the whole file is valid creates or carries over the rules' live state.
 *
 * <p>This class reads the file's frame (version, reload, defaults, the rules list, each rule's id, store, mode,
 * on-error, max-keys, on-full and throw) and hands each section to the class that compiles it: {@link StoreSection},
 * {@link MetricsSection},
 * {@link ResponseSection}, {@link ClientIpSection}, and per rule {@link MatchSection}, {@link LimitSection} and
 * {@link KeySection}; {@link LiveState} then gives the valid rules their limiters.
 *
 * <p>Phases on purpose, because a bad file on reload must leave the running limiters exactly as they were:
 * validation (every value, including each strategy's own {@link RateLimitStrategy#validate}) touches nothing
 * live; then every new limiter is created aside; only when all of them exist are the surviving limiters
 * {@link KeyedLimiter#reconfigure reconfigured}, and a store that still refuses new limits there (a limiter
 * this module cannot pre-check) has the ones already changed put back before the load fails.
 */
final class RulesCompiler {

    static final int SUPPORTED_VERSION = 1;
    static final int DEFAULT_MAX_KEYS = 100_000;
    static final int MAX_MAX_KEYS = 100_000_000;
    /** Fail closed: a flood of new keys can neither reset a throttled key nor pass unlimited (docs/rules.md). */
    static final OnFull DEFAULT_ON_FULL = OnFull.REJECT;
    static final int MAX_ID_LENGTH = 100;

    private static final String[] TOP_KEYS = {"version", "reload", "response", "client-ip", "defaults", "rules",
        "store", "metrics"};
    /** The keys a rule may have: docs/rules.md says for each which match kinds take it (a test holds both equal). */
    static final String[] RULE_KEYS = {"id", "match", "key", "limit", "window", "limits", "strategy",
        "capacity", "cost", "unless", "overrides", "mode", "on-error", "max-keys", "on-full", "throw", "store", "on-limit", "max-wait",
        "max-waiters", "algorithm", "min-limit", "max-limit", "initial-limit", BackoffSection.HONOR,
        BackoffSection.MAX};

    private static final String[] ON_FULL_SPELLINGS = spellings();

    private final FileProblems problems;
    private final Clock clock;
    private final LimiterFactory factory;
    /** The line of each valid rule's entry, by id: where JMX says a rule comes from. */
    private final Map<String, Integer> lines = new HashMap<>();

    /** What {@code defaults:} gives every rule. */
    private record Defaults(String strategy, int maxKeys, OnFull onFull, OnError onError, Mode mode) {
    }

    private RulesCompiler(FileProblems problems, Clock clock, LimiterFactory factory) {
        this.problems = problems;
        this.clock = clock;
        this.factory = factory == null ? LimiterFactory.LOCAL : factory;
    }

    /** Compiles a parsed file or throws every problem found. */
    static RuleSet compile(YamlNode root, Path source, RuleSet previous, Clock clock, FileProblems problems,
            LimiterFactory factory) {
        // committed last: the rules in force keep their own limits until the new set is whole
        return prepare(root, source, previous, clock, problems, factory).commit();
    }

    /**
     * A compiled set whose surviving limiters and states have not changed yet; {@link #commit} changes them and
     * returns the set, ready to publish.
     */
    record Prepared(RuleSet rules, LiveState live) {

        /** Applies the surviving rules' new limits and state, or throws every problem having changed nothing. */
        RuleSet commit() {
            live.commit();
            return rules;
        }
    }

    /** Compiles a parsed file without changing anything {@code previous} uses, or throws every problem found. */
    static Prepared prepare(YamlNode root, Path source, RuleSet previous, Clock clock, FileProblems problems,
            LimiterFactory factory) {
        return new RulesCompiler(problems, clock, factory).prepare(root, source, previous);
    }

    private Prepared prepare(YamlNode root, Path source, RuleSet previous) {
        Fields top = Fields.of(root, "the rules file", problems, TOP_KEYS);
        if (top == null) {
            problems.throwIfAny();
        }
        version(top);
        // A section the file does not have gets its default here, without loading the class that reads it (each
        // class loaded through the agent's loader costs start-up CPU); each read(null) returns the same default.
        YamlNode storeNode = top.get("store");
        StoreSpec store = storeNode == null ? StoreSpec.LOCAL : StoreSection.read(storeNode, problems);
        boolean watch = reload(top);
        YamlNode responseNode = top.get("response");
        ResponseSpec response = responseNode == null ? ResponseSpec.DEFAULT
                : ResponseSection.read(responseNode, problems);
        YamlNode clientIpNode = top.get("client-ip");
        ClientIpResolver clientIp = clientIpNode == null ? ClientIpResolver.PEER_ONLY
                : ClientIpSection.read(clientIpNode, problems);
        YamlNode metricsNode = top.get("metrics");
        MetricsSpec metrics = metricsNode == null ? MetricsSpec.NONE : MetricsSection.read(metricsNode, problems);
        Defaults defaults = defaults(top);
        List<RuleDraft> drafts = rules(top, defaults, store);
        problems.throwIfAny();
        LiveState live = LiveState.prepare(drafts, previous, factory, problems);
        return new Prepared(new RuleSet(source, live.rules(), response, clientIp, watch, metrics, lines), live);
    }

    private void version(Fields top) {
        if (!top.has("version")) {
            problems.add(top.node(), "the rules file has no 'version': start it with 'version: 1'");
            return;
        }
        YamlNode value = top.get("version");
        if (!value.is(YamlNode.Kind.INT) || !value.text().equals(Integer.toString(SUPPORTED_VERSION))) {
            problems.add(value, "unsupported version '" + Fields.shorten(value.text() == null ? value.kind()
                    .description() : value.text()) + "': this limiter reads version " + SUPPORTED_VERSION);
        }
    }

    private boolean reload(Fields top) {
        YamlNode node = top.get("reload");
        if (node == null) {
            return true;
        }
        Fields reload = Fields.of(node, "reload", problems, "watch");
        if (reload == null) {
            return true;
        }
        Boolean watch = reload.bool("watch", Boolean.TRUE);
        return watch == null || watch;
    }

    private Defaults defaults(Fields top) {
        Defaults builtIn = new Defaults("fixed-window", DEFAULT_MAX_KEYS, DEFAULT_ON_FULL, OnError.ALLOW,
                Mode.ENFORCE);
        YamlNode node = top.get("defaults");
        if (node == null) {
            return builtIn;
        }
        Fields fields = Fields.of(node, "defaults", problems, "strategy", "max-keys", "on-full", "on-error",
                "mode");
        if (fields == null) {
            return builtIn;
        }
        String strategy = builtIn.strategy();
        if (fields.has("strategy")) {
            String name = fields.string("strategy");
            strategy = name != null && LimitSection.strategy(name, fields.get("strategy"), problems) != null ? name
                    : builtIn.strategy();
        }
        Integer maxKeys = maxKeys(fields, builtIn.maxKeys());
        OnFull onFull = onFull(fields, builtIn.onFull());
        OnError onError = OnError.bySpelling(fields.has("on-error") ? fields.choice("on-error", "allow", "reject")
                : "allow");
        Mode mode = Mode.bySpelling(fields.has("mode") ? fields.choice("mode", "enforce", "dry-run") : "enforce");
        return new Defaults(strategy, maxKeys == null ? builtIn.maxKeys() : maxKeys, onFull,
                onError == null ? OnError.ALLOW : onError, mode == null ? Mode.ENFORCE : mode);
    }

    private Integer maxKeys(Fields fields, int absent) {
        Long maxKeys = fields.integer("max-keys", (long) absent);
        if (maxKeys == null) {
            return null;
        }
        if (maxKeys < 1 || maxKeys > MAX_MAX_KEYS) {
            problems.add(fields.get("max-keys"), "max-keys must be from 1 to " + MAX_MAX_KEYS + ", not " + maxKeys);
            return null;
        }
        return maxKeys.intValue();
    }

    /** The {@code on-full:} of {@code fields}, or {@code absent} when it is missing or wrong (recorded). */
    private static OnFull onFull(Fields fields, OnFull absent) {
        if (!fields.has("on-full")) {
            return absent;
        }
        OnFull onFull = OnFull.bySpelling(fields.choice("on-full", ON_FULL_SPELLINGS));
        return onFull == null ? absent : onFull;
    }

    private List<RuleDraft> rules(Fields top, Defaults defaults, StoreSpec store) {
        List<RuleDraft> drafts = new ArrayList<>();
        if (!top.has("rules")) {
            problems.add(top.node(), "the rules file has no 'rules' list (write 'rules: []' for none)");
            return drafts;
        }
        YamlNode list = top.get("rules");
        if (!list.is(YamlNode.Kind.LIST)) {
            problems.add(list, "rules must be a list (got " + list.kind().description() + ")");
            return drafts;
        }
        Map<String, YamlNode> ids = new HashMap<>();
        for (YamlNode item : list.items()) {
            RuleDraft draft = rule(item, defaults, ids, store);
            if (draft != null) {
                drafts.add(draft);
                lines.put(draft.id(), item.line());
            }
        }
        return drafts;
    }

    private RuleDraft rule(YamlNode node, Defaults defaults, Map<String, YamlNode> ids, StoreSpec fileStore) {
        int before = problems.count();
        String label = node.is(YamlNode.Kind.MAP) && node.get("id") != null
                && node.get("id").is(YamlNode.Kind.STRING) ? "rule '" + Fields.shorten(node.get("id").text()) + "'"
                : "rule";
        Fields rule = Fields.of(node, label, problems, RULE_KEYS);
        if (rule == null) {
            return null;
        }
        String id = id(rule, ids);
        StoreSpec store = store(rule, fileStore);
        MatchSection.Match match = null;
        if (!rule.has("match")) {
            rule.missing("match");
        } else {
            match = MatchSection.read(rule.get("match"), label, problems);
        }
        boolean several = rule.has("limits");
        LimitSection limits = several ? null : LimitSection.read(rule, label, defaults.strategy(), problems);
        RateLimitStrategy strategy = several ? strategy(rule, defaults) : limits.strategy();
        String modeText = rule.has("mode") ? rule.choice("mode", "enforce", "dry-run") : null;
        String onErrorText = rule.has("on-error") ? rule.choice("on-error", "allow", "reject") : null;
        Integer maxKeys = maxKeys(rule, defaults.maxKeys());
        OnFull onFull = onFull(rule, defaults.onFull());
        String throwClass = throwClass(rule, match);
        if (store != null && strategy != null && !factory.supports(store, strategy)) {
            problems.add(rule.has("store") ? rule.get("store") : rule.has("strategy") ? rule.get("strategy")
                    : rule.node(), strategy.samplesLatency()
                            ? "an adaptive limit is learned from this JVM's own latencies: it needs 'store: local'"
                            : "strategy '" + Fields.shorten(strategy.name()) + "' has no Redis script:"
                                    + " custom strategies need 'store: local'");
        }
        KeySpec key = KeySection.read(rule, match, problems);
        long maxBackoffNanos = BackoffSection.read(rule, match == null ? null : match.target, problems);
        PolicyDraft policy = PolicySection.read(rule, label, limits, match == null ? null : match.target, strategy,
                key, match == null ? null : match.condition, clock, problems);
        WaitSection.Waits waits = policy == null ? null : WaitSection.read(rule, match == null ? null
                : match.target, strategy, severalLimits(policy), store, problems);
        if (problems.count() > before || waits == null || match == null || policy == null || key == null || id == null
                || maxKeys == null || store == null || maxBackoffNanos < 0) {
            return null;
        }
        PolicyDraft.Limit first = policy.limits().get(0);
        return new RuleDraft(id, match.target, match.paths, match.patterns, match.methodBits, match.httpMethods,
                match.classGlob, match.methodGlob, key, strategy, first.config(), maxKeys, onFull,
                modeText == null ? defaults.mode() : Mode.bySpelling(modeText),
                onErrorText == null ? defaults.onError() : OnError.bySpelling(onErrorText), throwClass, store,
                first.at(), policy.waiting(waits.maxWaitNanos(), waits.maxWaiters()), match.hostMatch,
                maxBackoffNanos);
    }

    /** True if the rule, or one of its overrides, has several limits. */
    private static boolean severalLimits(PolicyDraft policy) {
        if (policy.limits().size() > 1) {
            return true;
        }
        for (PolicyDraft.Override override : policy.overrides()) {
            if (override.limits().size() > 1) {
                return true;
            }
        }
        return false;
    }

    /** The strategy of a rule with a {@code limits:} list (its own or the default), or null (recorded). */
    private RateLimitStrategy strategy(Fields rule, Defaults defaults) {
        String name = rule.has("strategy") ? rule.string("strategy") : defaults.strategy();
        return name == null ? null
                : LimitSection.strategy(name, rule.has("strategy") ? rule.get("strategy") : rule.node(), problems);
    }

    /** The rule's id, or null after recording why it is missing, malformed or taken. */
    private String id(Fields rule, Map<String, YamlNode> ids) {
        String id = rule.requiredString("id");
        if (id != null) {
            if (!validId(id)) {
                problems.add(rule.get("id"), "rule id '" + Fields.shorten(id) + "' must be 1 to " + MAX_ID_LENGTH
                        + " letters, digits, '.', '_' or '-', starting with a letter or digit");
            } else if (ids.containsKey(id)) {
                problems.add(rule.get("id"), "duplicate rule id '" + id + "' (first used at line "
                        + ids.get(id).line() + ")");
            } else {
                ids.put(id, rule.get("id"));
            }
        }
        return id;
    }

    /** Where the rule's state lives: the file's store unless the rule says {@code store: local}; null if wrong. */
    private StoreSpec store(Fields rule, StoreSpec fileStore) {
        StoreSpec store = fileStore;
        if (rule.has("store")) {
            String which = rule.choice("store", StoreSpec.TYPE_REDIS, StoreSpec.TYPE_LOCAL);
            if (StoreSpec.TYPE_LOCAL.equals(which)) {
                store = StoreSpec.LOCAL;
            } else if (StoreSpec.TYPE_REDIS.equals(which) && !fileStore.isRedis()) {
                problems.add(rule.get("store"), "store: redis needs a top-level 'store:' section with"
                        + " 'type: redis' and its 'uri'");
                store = null;
            }
        }
        return store;
    }

    /** The exception class a rejected method rule throws, or null (none, or invalid: recorded). */
    private String throwClass(Fields rule, MatchSection.Match match) {
        String throwClass = null;
        if (rule.has("throw")) {
            throwClass = rule.string("throw");
            if (throwClass != null && !isClassName(throwClass)) {
                problems.add(rule.get("throw"), "throw must be a fully qualified class name, not '"
                        + Fields.shorten(throwClass) + "'");
            } else if (throwClass != null && match != null && match.target != Rule.Target.METHOD) {
                problems.add(rule.get("throw"), "throw applies to method rules only (HTTP and JAX-RS rejections"
                        + " are error responses, gRPC ones end the call with RESOURCE_EXHAUSTED, outgoing calls throw"
                        + " the client's own kind of exception)");
            }
        }
        return throwClass;
    }

    private static String[] spellings() {
        OnFull[] values = OnFull.values();
        String[] spellings = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            spellings[i] = values[i].spelling();
        }
        return spellings;
    }

    static boolean validId(String id) {
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH || !Character.isLetterOrDigit(id.charAt(0))) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
                    || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isClassName(String name) {
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
            return false;
        }
        boolean start = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                start = true;
            } else if (start ? !Character.isJavaIdentifierStart(c) : !Character.isJavaIdentifierPart(c)) {
                return false;
            } else {
                start = false;
            }
        }
        return true;
    }
}
