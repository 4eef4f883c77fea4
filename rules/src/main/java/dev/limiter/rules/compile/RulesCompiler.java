package dev.limiter.rules.compile;

import dev.limiter.core.Clock;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.Strategies;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleState;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.Suggestions;
import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.response.HeaderStyle;
import dev.limiter.rules.response.ResponseSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
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
    static final long DEFAULT_CONCURRENCY_WINDOW_MILLIS = 1_000;
    static final int MAX_ID_LENGTH = 100;

    private static final String[] TOP_KEYS = {"version", "reload", "response", "client-ip", "defaults", "rules",
        "store"};
    private static final String[] RULE_KEYS = {"id", "match", "key", "limit", "window", "strategy", "capacity",
        "mode", "on-error", "max-keys", "throw", "store"};

    private final Problems problems;
    private final Clock clock;
    private final LimiterFactory factory;

    /** A rule that passed validation, before it gets live state. */
    private record Draft(String id, Rule.Target target, List<String> paths, PathPattern[] patterns, int methodBits,
            List<String> httpMethods, NameGlob classGlob, NameGlob methodGlob, KeySpec key,
            RateLimitStrategy strategy, LimitConfig config, int maxKeys, Mode mode, OnError onError,
            String throwClass, StoreSpec store, YamlNode limitAt) {
    }

    /** What {@code defaults:} gives every rule. */
    private record Defaults(String strategy, int maxKeys, OnError onError, Mode mode) {
    }

    private RulesCompiler(Problems problems, Clock clock, LimiterFactory factory) {
        this.problems = problems;
        this.clock = clock;
        this.factory = factory == null ? LimiterFactory.LOCAL : factory;
    }

    /** Compiles a parsed file or throws every problem found. */
    static RuleSet compile(YamlNode root, Path source, RuleSet previous, Clock clock, Problems problems,
            LimiterFactory factory) {
        return new RulesCompiler(problems, clock, factory).compile(root, source, previous);
    }

    private RuleSet compile(YamlNode root, Path source, RuleSet previous) {
        Fields top = Fields.of(root, "the rules file", problems, TOP_KEYS);
        if (top == null) {
            problems.throwIfAny();
        }
        version(top);
        StoreSpec store = StoreSection.read(top.get("store"), problems);
        boolean watch = reload(top);
        ResponseSpec response = response(top);
        ClientIpResolver clientIp = clientIp(top);
        Defaults defaults = defaults(top);
        List<Draft> drafts = rules(top, defaults, store);
        problems.throwIfAny();
        return new RuleSet(source, build(drafts, previous), response, clientIp, watch);
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

    private ResponseSpec response(Fields top) {
        YamlNode node = top.get("response");
        if (node == null) {
            return ResponseSpec.DEFAULT;
        }
        Fields response = Fields.of(node, "response", problems, "status", "content-type", "body", "headers");
        if (response == null) {
            return ResponseSpec.DEFAULT;
        }
        Long status = response.integer("status", (long) ResponseSpec.DEFAULT_STATUS);
        if (status != null && (status < 400 || status > 599)) {
            problems.add(response.get("status"), "status must be an HTTP error status from 400 to 599, not "
                    + status);
        }
        String contentType = response.has("content-type") ? response.string("content-type")
                : ResponseSpec.DEFAULT_CONTENT_TYPE;
        if (contentType != null && (contentType.isBlank() || contentType.indexOf('\n') >= 0
                || contentType.indexOf('\r') >= 0)) {
            problems.add(response.get("content-type"), "content-type must be one non-empty line");
        }
        String body = response.has("body") ? response.string("body") : ResponseSpec.DEFAULT_BODY;
        String headers = response.has("headers") ? response.choice("headers", "draft", "legacy", "both", "none")
                : "draft";
        ResponseSpec spec = null;
        if (body != null) {
            try {
                spec = ResponseSpec.create(status == null ? ResponseSpec.DEFAULT_STATUS : status.intValue(),
                        contentType == null ? ResponseSpec.DEFAULT_CONTENT_TYPE : contentType, body,
                        headers == null ? HeaderStyle.DRAFT : HeaderStyle.bySpelling(headers));
            } catch (IllegalArgumentException e) {
                problems.add(response.get("body"), e.getMessage());
            }
        }
        return spec == null ? ResponseSpec.DEFAULT : spec;
    }

    private ClientIpResolver clientIp(Fields top) {
        YamlNode node = top.get("client-ip");
        if (node == null) {
            return ClientIpResolver.PEER_ONLY;
        }
        Fields fields = Fields.of(node, "client-ip", problems, "trusted-proxies", "header");
        if (fields == null) {
            return ClientIpResolver.PEER_ONLY;
        }
        List<String> cidrs = new ArrayList<>();
        List<YamlNode> items = fields.stringList("trusted-proxies");
        if (items != null) {
            for (YamlNode item : items) {
                String problem = ClientIpResolver.cidrProblem(item.text());
                if (problem != null) {
                    problems.add(item, problem);
                } else {
                    cidrs.add(item.text());
                }
            }
        }
        String header = fields.has("header") ? fields.choice("header", "x-forwarded-for", "forwarded")
                : "x-forwarded-for";
        ClientIpResolver.Header which = "forwarded".equals(header) ? ClientIpResolver.Header.FORWARDED
                : ClientIpResolver.Header.X_FORWARDED_FOR;
        return cidrs.isEmpty() && which == ClientIpResolver.Header.X_FORWARDED_FOR ? ClientIpResolver.PEER_ONLY
                : ClientIpResolver.create(cidrs, which);
    }

    private Defaults defaults(Fields top) {
        Defaults builtIn = new Defaults("fixed-window", DEFAULT_MAX_KEYS, OnError.ALLOW, Mode.ENFORCE);
        YamlNode node = top.get("defaults");
        if (node == null) {
            return builtIn;
        }
        Fields fields = Fields.of(node, "defaults", problems, "strategy", "max-keys", "on-error", "mode");
        if (fields == null) {
            return builtIn;
        }
        String strategy = builtIn.strategy();
        if (fields.has("strategy")) {
            String name = fields.string("strategy");
            strategy = name != null && strategy(name, fields.get("strategy")) != null ? name : builtIn.strategy();
        }
        Integer maxKeys = maxKeys(fields, builtIn.maxKeys());
        OnError onError = OnError.bySpelling(fields.has("on-error") ? fields.choice("on-error", "allow", "reject")
                : "allow");
        Mode mode = Mode.bySpelling(fields.has("mode") ? fields.choice("mode", "enforce", "dry-run") : "enforce");
        return new Defaults(strategy, maxKeys == null ? builtIn.maxKeys() : maxKeys,
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

    private RateLimitStrategy strategy(String name, YamlNode at) {
        RateLimitStrategy strategy = Strategies.byName(name);
        if (strategy == null) {
            List<String> names = Strategies.names();
            String suggestion = Suggestions.closest(name, names);
            problems.add(at, "unknown strategy '" + Fields.shorten(name) + "'"
                    + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
                    + "; known strategies: " + String.join(", ", names));
        }
        return strategy;
    }

    private List<Draft> rules(Fields top, Defaults defaults, StoreSpec store) {
        List<Draft> drafts = new ArrayList<>();
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
            Draft draft = rule(item, defaults, ids, store);
            if (draft != null) {
                drafts.add(draft);
            }
        }
        return drafts;
    }

    private Draft rule(YamlNode node, Defaults defaults, Map<String, YamlNode> ids, StoreSpec fileStore) {
        int before = problems.count();
        String label = node.is(YamlNode.Kind.MAP) && node.get("id") != null
                && node.get("id").is(YamlNode.Kind.STRING) ? "rule '" + Fields.shorten(node.get("id").text()) + "'"
                : "rule";
        Fields rule = Fields.of(node, label, problems, RULE_KEYS);
        if (rule == null) {
            return null;
        }
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
        // match
        MatchCompiler.Match match = null;
        if (!rule.has("match")) {
            rule.missing("match");
        } else {
            match = MatchCompiler.compile(rule.get("match"), label, problems);
        }
        // strategy, limits
        String strategyName = rule.has("strategy") ? rule.string("strategy") : defaults.strategy();
        RateLimitStrategy strategy = null;
        if (strategyName != null) {
            strategy = strategy(strategyName, rule.has("strategy") ? rule.get("strategy") : rule.node());
        }
        Long limit = null;
        if (!rule.has("limit")) {
            rule.missing("limit");
        } else {
            limit = rule.integer("limit", null);
            if (limit != null && limit < 1) {
                problems.add(rule.get("limit"), "limit must be at least 1, not " + limit);
                limit = null;
            } else if (limit != null && limit > LimitConfig.MAX_LIMIT) {
                problems.add(rule.get("limit"), "limit must be at most " + LimitConfig.MAX_LIMIT);
                limit = null;
            }
        }
        boolean inFlight = strategy != null && strategy.releasesOnExit();
        Long window = null;
        if (rule.has("window")) {
            window = window(rule);
        } else if (inFlight) {
            window = DEFAULT_CONCURRENCY_WINDOW_MILLIS;
        } else if (strategy != null) {
            problems.add(rule.node(), label + " has no 'window' (e.g. 'window: 1s'); only concurrency rules"
                    + " need none");
        }
        Long capacity = null;
        if (rule.has("capacity")) {
            capacity = rule.integer("capacity", null);
            if (capacity != null && capacity < 1) {
                problems.add(rule.get("capacity"), "capacity must be at least 1, not " + capacity);
                capacity = null;
            } else if (capacity != null && capacity > LimitConfig.MAX_LIMIT) {
                problems.add(rule.get("capacity"), "capacity must be at most " + LimitConfig.MAX_LIMIT);
                capacity = null;
            } else if (capacity != null && strategy != null && !strategy.usesCapacity()) {
                problems.add(rule.get("capacity"), "capacity applies to token-bucket and leaky-bucket, not "
                        + strategy.name());
                capacity = null;
            }
        }
        String modeText = rule.has("mode") ? rule.choice("mode", "enforce", "dry-run") : null;
        String onErrorText = rule.has("on-error") ? rule.choice("on-error", "allow", "reject") : null;
        Integer maxKeys = maxKeys(rule, defaults.maxKeys());
        String throwClass = null;
        if (rule.has("throw")) {
            throwClass = rule.string("throw");
            if (throwClass != null && !isClassName(throwClass)) {
                problems.add(rule.get("throw"), "throw must be a fully qualified class name, not '"
                        + Fields.shorten(throwClass) + "'");
            } else if (throwClass != null && match != null && match.target != Rule.Target.METHOD) {
                problems.add(rule.get("throw"), "throw applies to method rules only (HTTP and JAX-RS rejections"
                        + " are error responses)");
            }
        }
        if (store != null && strategy != null && !factory.supports(store, strategy)) {
            problems.add(rule.has("store") ? rule.get("store") : rule.has("strategy") ? rule.get("strategy")
                    : rule.node(), "strategy '" + Fields.shorten(strategy.name()) + "' has no Redis script:"
                    + " custom strategies need 'store: local'");
        }
        KeySpec key = key(rule, match);
        LimitConfig config = null;
        if (limit != null && window != null && strategy != null) {
            LimitConfig withoutCapacity = null;
            try {
                withoutCapacity = LimitConfig.of(limit, window);
                if (clock != null) {
                    withoutCapacity = withoutCapacity.withClock(clock);
                }
                config = capacity == null ? withoutCapacity : withoutCapacity.withCapacity(capacity);
            } catch (IllegalArgumentException e) {
                problems.add(rule.has("capacity") ? rule.get("capacity") : rule.get("limit"), e.getMessage());
            }
            String refusal = config == null ? null : refusal(strategy, config);
            if (refusal != null) {
                // blame the capacity only if the strategy accepts the same limits without it
                boolean capacityAtFault = capacity != null && refusal(strategy, withoutCapacity) == null;
                problems.add(rule.get(capacityAtFault ? "capacity" : "limit"), refusal);
                config = null;
            }
        }
        if (problems.count() > before || match == null || config == null || key == null || id == null
                || maxKeys == null || store == null) {
            return null;
        }
        return new Draft(id, match.target, match.paths, match.patterns, match.methodBits, match.httpMethods,
                match.classGlob, match.methodGlob, key, strategy, config, maxKeys,
                modeText == null ? defaults.mode() : Mode.bySpelling(modeText),
                onErrorText == null ? defaults.onError() : OnError.bySpelling(onErrorText), throwClass, store,
                rule.get("limit"));
    }

    /**
     * Why {@code strategy} cannot run with {@code config} (its own {@link RateLimitStrategy#validate}, e.g. the
     * sliding window's 21-bit counts), or null if it can. A custom strategy that fails otherwise is reported too:
     * its bug must read as "this rule cannot be used", not as an internal error of the whole file.
     */
    private static String refusal(RateLimitStrategy strategy, LimitConfig config) {
        try {
            strategy.validate(config);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage()
                    : "strategy '" + Fields.shorten(strategy.name()) + "' refuses these limits";
        } catch (RuntimeException e) {
            return "strategy '" + Fields.shorten(strategy.name()) + "' failed while checking these limits: " + e;
        }
    }

    private Long window(Fields rule) {
        YamlNode node = rule.get("window");
        if (node.is(YamlNode.Kind.INT)) {
            problems.add(node, "window '" + Fields.shorten(node.text()) + "' has no unit: write e.g. "
                    + Fields.shorten(node.text()) + "ms or " + Fields.shorten(node.text()) + "s");
            return null;
        }
        String text = rule.string("window");
        if (text == null) {
            return null;
        }
        long millis = Durations.millis(text);
        if (millis < 0) {
            problems.add(rule.get("window"), "window '" + Fields.shorten(text) + "' is not a duration: write a"
                    + " whole number and a unit, like 250ms, 1s, 1m, 1h or 1d");
            return null;
        }
        if (millis < 1) {
            problems.add(rule.get("window"), "window must be longer than 0");
            return null;
        }
        if (millis > LimitConfig.MAX_WINDOW_MILLIS) {
            problems.add(rule.get("window"), "window must be at most 49d");
            return null;
        }
        return millis;
    }

    private KeySpec key(Fields rule, MatchCompiler.Match match) {
        if (!rule.has("key")) {
            return KeySpec.GLOBAL;
        }
        String text = rule.string("key");
        if (text == null) {
            return null;
        }
        KeySpec key;
        try {
            key = KeySpec.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(rule.get("key"), e.getMessage());
            return null;
        }
        if (match == null) {
            return key;
        }
        YamlNode at = rule.get("key");
        switch (key.kind()) {
            case ARG:
                if (match.target == Rule.Target.HTTP) {
                    problems.add(at, "key '" + key + "' needs a method or jaxrs match (HTTP requests have no"
                            + " arguments)");
                    return null;
                }
                return key;
            case PATH_PARAM:
                if (match.target == Rule.Target.JAXRS) {
                    // the @PathParam(NAME) argument of the resource method; the agent finds it when it weaves
                    return key;
                }
                if (match.target != Rule.Target.HTTP) {
                    problems.add(at, "key '" + key + "' needs an http match with {" + key.name() + "} in the path,"
                            + " or a jaxrs match with a @PathParam(\"" + key.name() + "\") argument");
                    return null;
                }
                for (PathPattern pattern : match.patterns) {
                    if (!pattern.captures(key.name())) {
                        problems.add(at, "key '" + key + "': path '" + pattern.text() + "' has no {" + key.name()
                                + "} segment");
                        return null;
                    }
                }
                return key;
            case IP:
            case HEADER:
            case PARAM:
            case PATH:
                if (match.target == Rule.Target.METHOD) {
                    problems.add(at, "key '" + key + "' needs an http or jaxrs match (plain methods have no"
                            + " request)");
                    return null;
                }
                return key;
            default:
                return key;
        }
    }

    private static boolean validId(String id) {
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

    /**
     * Gives the validated rules their live state, touching nothing live until everything new exists: a rule keeps
     * {@code previous}'s state when id, strategy, max-keys and store match (a changed store means state
     * elsewhere: a new limiter from the factory). Phase 1 creates the new limiters; phase 2 applies new limits to
     * the surviving ones and, if a limiter still refuses, puts back those already changed and fails the load;
     * phase 3 cannot fail.
     */
    private List<Rule> build(List<Draft> drafts, RuleSet previous) {
        int n = drafts.size();
        Rule[] olds = new Rule[n];
        RuleState[] states = new RuleState[n];
        for (int i = 0; i < n; i++) {
            Draft draft = drafts.get(i);
            Rule old = previous == null ? null : previous.rule(draft.id());
            if (old != null && old.limiter().strategy() == draft.strategy() && old.maxKeys() == draft.maxKeys()
                    && old.store().equals(draft.store())) {
                olds[i] = old;
                states[i] = old.state();
                continue;
            }
            try {
                KeyedLimiter limiter = factory.create(draft.id(), draft.store(), draft.strategy(), draft.config(),
                        draft.maxKeys());
                states[i] = new RuleState(limiter, new RuleStats(), draft.strategy().name(), draft.maxKeys(),
                        draft.store());
            } catch (RuntimeException e) {
                problems.add(draft.limitAt(), "rule '" + draft.id() + "': its limiter could not be created: "
                        + reason(e));
            }
        }
        problems.throwIfAny();
        reconfigureAll(drafts, olds);
        List<Rule> rules = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Draft draft = drafts.get(i);
            if (olds[i] != null && olds[i].fileMode() != draft.mode()) {
                states[i].modeOverride(null); // the file changed the mode: the file wins
            }
            rules.add(new Rule(draft.id(), i, draft.target(), draft.paths(), draft.patterns(), draft.methodBits(),
                    draft.httpMethods(), draft.classGlob(), draft.methodGlob(), draft.key(), draft.mode(),
                    draft.onError(), draft.throwClass(), states[i]));
        }
        return rules;
    }

    /**
     * Applies the new limits to every surviving limiter, or to none: validation already ran each strategy's
     * check, so only a limiter with limits of its own (a store's) can refuse here; then the limiters changed so
     * far get their previous configuration back and the load fails at the refusing rule's {@code limit:}.
     */
    private void reconfigureAll(List<Draft> drafts, Rule[] olds) {
        List<KeyedLimiter> changed = new ArrayList<>();
        List<LimitConfig> before = new ArrayList<>();
        for (int i = 0; i < olds.length; i++) {
            if (olds[i] == null) {
                continue;
            }
            KeyedLimiter limiter = olds[i].limiter();
            LimitConfig old = limiter.config();
            LimitConfig next = drafts.get(i).config();
            if (old.sameLimits(next)) {
                continue;
            }
            try {
                limiter.reconfigure(next);
            } catch (RuntimeException e) {
                for (int j = changed.size() - 1; j >= 0; j--) {
                    try {
                        changed.get(j).reconfigure(before.get(j));
                    } catch (RuntimeException ignored) {
                        // it ran with these limits a moment ago: nothing better to put back
                    }
                }
                problems.add(drafts.get(i).limitAt(), "rule '" + drafts.get(i).id() + "': its limiter refuses the"
                        + " new limits (" + reason(e) + "); no rule was changed");
                problems.throwIfAny();
            }
            changed.add(limiter);
            before.add(old);
        }
    }

    private static String reason(RuntimeException e) {
        return e.getMessage() == null || e.getMessage().isBlank() ? e.toString() : e.getMessage();
    }
}
