package dev.limiter.rules.compile;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.Tier;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates what a rule says beyond one limit: several {@code limits}, the {@code cost} of a call, the
 * {@code unless} exemptions and the {@code overrides} (by key or by request), and compiles them into a
 * {@link PolicyDraft}. Every mistake is recorded at its position with what would be valid.
 */
final class PolicySection {

    static final int MAX_LIMITS = Tier.MAX_LIMITS;
    static final int MAX_OVERRIDES = 1_000;
    static final int MAX_OVERRIDE_KEYS = 100_000;

    private static final String[] OVERRIDE_KEYS = {"name", "keys", "when", "limit", "window", "capacity", "limits",
        "unlimited"};

    private final Fields rule;
    private final String label;
    private final Rule.Target target;
    private final RateLimitStrategy strategy;
    private final Clock clock;
    private final Problems problems;

    private PolicySection(Fields rule, String label, Rule.Target target, RateLimitStrategy strategy, Clock clock,
            Problems problems) {
        this.rule = rule;
        this.label = label;
        this.target = target;
        this.strategy = strategy;
        this.clock = clock;
        this.problems = problems;
    }

    /**
     * The rule's policy, or null after recording a problem.
     *
     * @param single    the rule's {@code limit}/{@code window} when it has no {@code limits:} list (else null)
     * @param target    what the rule matches (null if its match is invalid)
     * @param strategy  the rule's strategy (null if invalid)
     * @param condition the request condition of its {@code match}, or null
     */
    static PolicyDraft read(Fields rule, String label, LimitSection single, Rule.Target target,
            RateLimitStrategy strategy, KeySpec key, Condition condition, Clock clock, Problems problems) {
        return new PolicySection(rule, label, target, strategy, clock, problems).read(single, key, condition);
    }

    private PolicyDraft read(LimitSection single, KeySpec key, Condition condition) {
        int before = problems.count();
        List<PolicyDraft.Limit> limits;
        if (single != null) {
            LimitConfig config = single.config(clock);
            limits = config == null ? null : List.of(new PolicyDraft.Limit(config, rule.get("limit")));
        } else {
            limits = limitList(rule, label);
        }
        long[] cost = cost();
        List<Condition> unless = unless();
        List<PolicyDraft.Override> overrides = overrides(key);
        if (problems.count() > before || limits == null || cost == null || overrides == null) {
            return null;
        }
        checkCost(cost[0], limits, overrides);
        if (problems.count() > before) {
            return null;
        }
        return new PolicyDraft(limits, overrides, condition, unless, cost[0], (int) cost[1]);
    }

    /** The {@code limits:} list of {@code fields} (a rule or an override), shortest window first; null if wrong. */
    private List<PolicyDraft.Limit> limitList(Fields fields, String where) {
        for (String single : new String[] {"limit", "window", "capacity"}) {
            if (fields.has(single)) {
                problems.add(fields.get(single), where + " has both 'limits' and '" + single + "': give each limit"
                        + " its limit, window and capacity inside 'limits'");
            }
        }
        YamlNode list = fields.get("limits");
        if (!list.is(YamlNode.Kind.LIST) || list.items().isEmpty()) {
            problems.add(list, "limits must be a list of limits, e.g. [ { limit: 10, window: 1s }, { limit: 1000,"
                    + " window: 1h } ]");
            return null;
        }
        if (list.items().size() > MAX_LIMITS) {
            problems.add(list, "limits has " + list.items().size() + " entries; at most " + MAX_LIMITS
                    + " (each is checked on every call)");
            return null;
        }
        if (list.items().size() > 1 && strategy != null && !strategy.takesSeveral()) {
            problems.add(list, "several limits need a strategy that can give permits back (fixed-window,"
                    + " sliding-window, sliding-log, token-bucket or leaky-bucket), not " + strategy.name());
            return null;
        }
        List<PolicyDraft.Limit> limits = new ArrayList<>();
        Map<Long, YamlNode> windows = new HashMap<>();
        boolean valid = true;
        for (YamlNode item : list.items()) {
            Fields entry = Fields.of(item, "limits entry", problems, "limit", "window", "capacity");
            if (entry == null) {
                valid = false;
                continue;
            }
            LimitConfig config = LimitSection.entry(entry, "limits entry", strategy, problems).config(clock);
            if (config == null) {
                valid = false;
                continue;
            }
            YamlNode same = windows.putIfAbsent(config.windowMillis(), item);
            if (same != null) {
                problems.add(item, "two limits with the same window (the other at line " + same.line() + "):"
                        + " keep the lower one");
                valid = false;
                continue;
            }
            limits.add(new PolicyDraft.Limit(config, entry.get("limit")));
        }
        if (!valid) {
            return null;
        }
        limits.sort(Comparator.comparingLong(limit -> limit.config().windowMillis()));
        return limits;
    }

    /** {cost, argument} ({@code -1} for a fixed cost), or null after recording a problem. */
    private long[] cost() {
        if (!rule.has("cost")) {
            return new long[] {1, -1};
        }
        YamlNode node = rule.get("cost");
        if (node.is(YamlNode.Kind.INT)) {
            Long cost = rule.integer("cost", 1L);
            if (cost == null) {
                return null;
            }
            if (cost < 1 || cost > LimitConfig.MAX_LIMIT) {
                problems.add(node, "cost must be from 1 to " + LimitConfig.MAX_LIMIT + ", not " + cost);
                return null;
            }
            if (cost > 1 && !takesSeveral(node)) {
                return null;
            }
            return new long[] {cost, -1};
        }
        String text = node.is(YamlNode.Kind.STRING) ? node.text() : null;
        if (text == null || !text.startsWith("arg:")) {
            problems.add(node, "cost must be a whole number of permits (e.g. 'cost: 50') or, for a method, the argument"
                    + " that gives it ('cost: arg:1')");
            return null;
        }
        if (target == Rule.Target.HTTP || target == Rule.Target.GRPC || target == Rule.Target.HTTP_CLIENT) {
            problems.add(node, "cost '" + Fields.shorten(text) + "' needs a method or jaxrs match ("
                    + (target == Rule.Target.HTTP ? "HTTP requests have" : target == Rule.Target.GRPC
                            ? "a gRPC call has" : "an outgoing HTTP call has") + " no arguments);"
                    + " give a number instead");
            return null;
        }
        KeySpec argument;
        try {
            argument = KeySpec.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(node, "cost " + e.getMessage().replaceFirst("^key ", ""));
            return null;
        }
        if (!takesSeveral(node)) {
            return null;
        }
        // whether the matched methods have that argument, and of a type that can be a cost, is known when they
        // are woven: a method that cannot supply it makes the rule fail there (logged, on-error)
        return new long[] {1, argument.index()};
    }

    private boolean takesSeveral(YamlNode at) {
        if (strategy != null && !strategy.takesSeveral()) {
            problems.add(at, "a cost above 1 needs a strategy that takes several permits at once (fixed-window,"
                    + " sliding-window, sliding-log, token-bucket or leaky-bucket), not " + strategy.name());
            return false;
        }
        return true;
    }

    private List<Condition> unless() {
        List<Condition> conditions = new ArrayList<>();
        if (!rule.has("unless")) {
            return conditions;
        }
        YamlNode list = rule.get("unless");
        if (!list.is(YamlNode.Kind.LIST) || list.items().isEmpty()) {
            problems.add(list, "unless must be a list of conditions, e.g. [ { ips: [10.0.0.0/8] },"
                    + " { headers: { X-Health-Check: 'true' } } ]");
            return conditions;
        }
        for (YamlNode item : list.items()) {
            Condition condition = ConditionSection.read(item, "unless entry", target, problems);
            if (condition != null) {
                conditions.add(condition);
            }
        }
        return conditions;
    }

    private List<PolicyDraft.Override> overrides(KeySpec key) {
        List<PolicyDraft.Override> overrides = new ArrayList<>();
        if (!rule.has("overrides")) {
            return overrides;
        }
        YamlNode list = rule.get("overrides");
        if (!list.is(YamlNode.Kind.LIST) || list.items().isEmpty()) {
            problems.add(list, "overrides must be a list, e.g. [ { keys: [k-gold], limit: 100, window: 1s } ]");
            return null;
        }
        if (list.items().size() > MAX_OVERRIDES) {
            problems.add(list, "overrides has more than " + MAX_OVERRIDES + " entries");
            return null;
        }
        Map<String, YamlNode> names = new HashMap<>();
        int before = problems.count();
        for (int i = 0; i < list.items().size(); i++) {
            PolicyDraft.Override override = override(list.items().get(i), i + 1, key, names);
            if (override != null) {
                overrides.add(override);
            }
        }
        return problems.count() > before ? null : overrides;
    }

    private PolicyDraft.Override override(YamlNode node, int number, KeySpec key, Map<String, YamlNode> names) {
        Fields fields = Fields.of(node, "override", problems, OVERRIDE_KEYS);
        if (fields == null) {
            return null;
        }
        String name = fields.has("name") ? fields.string("name") : "override-" + number;
        if (name != null && !RulesCompiler.validId(name)) {
            problems.add(fields.get("name"), "override name '" + Fields.shorten(name) + "' must be letters, digits,"
                    + " '.', '_' or '-', starting with a letter or digit");
        } else if (name != null && names.containsKey(name)) {
            problems.add(fields.has("name") ? fields.get("name") : node, "duplicate override name '" + name
                    + "' (first at line " + names.get(name).line() + ")");
        } else if (name != null) {
            names.put(name, node);
        }
        String where = "override '" + name + "'";
        if (fields.has("keys") == fields.has("when")) {
            problems.add(node, where + " must have exactly one of 'keys' (values of the rule's key) or 'when'"
                    + " (a condition on the request)");
            return null;
        }
        Set<String> keys = null;
        Condition when = null;
        if (fields.has("keys")) {
            keys = keys(fields, key, where);
        } else {
            when = ConditionSection.read(fields.get("when"), where + " when", target, problems);
        }
        List<PolicyDraft.Limit> limits = overrideLimits(fields, where);
        if (limits == null || (keys == null && when == null)) {
            return null;
        }
        return new PolicyDraft.Override(name, limits, keys, when);
    }

    private Set<String> keys(Fields fields, KeySpec key, String where) {
        if (key != null && key.kind() == KeySpec.Kind.GLOBAL) {
            problems.add(fields.get("keys"), where + ": keys needs a rule with a key (this rule's key is global,"
                    + " one budget for everyone); use 'when' to pick requests instead");
            return null;
        }
        List<YamlNode> items = fields.stringList("keys");
        if (items == null) {
            return null;
        }
        if (fields.get("keys").items().isEmpty() || items.size() > MAX_OVERRIDE_KEYS) {
            problems.add(fields.get("keys"), "keys must have 1 to " + MAX_OVERRIDE_KEYS + " values");
            return null;
        }
        Set<String> keys = new LinkedHashSet<>();
        for (YamlNode item : items) {
            if (item.text().length() > KeyBound.MAX_CHARS) {
                problems.add(item, "a key value is at most " + KeyBound.MAX_CHARS + " characters (longer keys are"
                        + " kept as a digest and could never match)");
                return null;
            }
            keys.add(item.text());
        }
        return keys;
    }

    /** An override's limits (empty for {@code unlimited: true}), or null after recording a problem. */
    private List<PolicyDraft.Limit> overrideLimits(Fields fields, String where) {
        boolean unlimited = fields.has("unlimited");
        boolean list = fields.has("limits");
        boolean single = fields.has("limit") || fields.has("window") || fields.has("capacity");
        if (unlimited && (list || single)) {
            problems.add(fields.get("unlimited"), where + " is unlimited and has limits too: remove"
                    + " 'unlimited: true', or its " + (list ? "'limits'" : "'limit' and 'window'"));
            return null;
        }
        if ((unlimited ? 1 : 0) + (list ? 1 : 0) + (single ? 1 : 0) != 1) {
            problems.add(fields.node(), where + " must have exactly one of 'limit' and 'window', 'limits', or"
                    + " 'unlimited: true'");
            return null;
        }
        if (unlimited) {
            Boolean value = fields.bool("unlimited", Boolean.FALSE);
            if (value != null && !value) {
                problems.add(fields.get("unlimited"), "unlimited: false says nothing; give the override a 'limit'"
                        + " and 'window' instead");
                return null;
            }
            return value == null ? null : List.of();
        }
        if (list) {
            return limitList(fields, where);
        }
        LimitConfig config = LimitSection.entry(fields, where, strategy, problems).config(clock);
        return config == null ? null : List.of(new PolicyDraft.Limit(config, fields.get("limit")));
    }

    /** A cost above a limit (or a bucket's capacity) could never be admitted: refuse it where it is written. */
    private void checkCost(long cost, List<PolicyDraft.Limit> limits, List<PolicyDraft.Override> overrides) {
        if (cost == 1) {
            return;
        }
        List<PolicyDraft.Limit> all = new ArrayList<>(limits);
        overrides.forEach(override -> all.addAll(override.limits()));
        for (PolicyDraft.Limit limit : all) {
            long budget = strategy != null && strategy.usesCapacity() ? limit.config().capacity()
                    : limit.config().limit();
            if (cost > budget) {
                problems.add(rule.get("cost"), "cost " + cost + " is above the budget of " + budget + " at line "
                        + limit.at().line() + ": no call could ever be admitted");
                return;
            }
        }
    }
}
