package dev.limiter.agent.method;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * The rules of one woven site under one {@link RuleSet} snapshot, and what each needs to compute its key.
 *
 * <p>Computed once per site and snapshot (so only after a reload) and kept in the site's volatile field; the
 * call path then only compares the snapshot reference. Everything that would otherwise build a string on the
 * call path is prepared here: whether a rule's key comes from the woven argument, from the servlet request, or
 * cannot be had at this site at all, and the message logged (throttled) when the key is missing.
 */
final class SiteRules {

    /** The key is the empty string: one budget. */
    static final byte GLOBAL = 0;
    /** The key is {@code String.valueOf} of the woven key argument. */
    static final byte ARGUMENT = 1;
    /** The key comes from the servlet request in flight on the thread (ip, header, param, principal, path). */
    static final byte REQUEST = 2;
    /**
     * The site cannot supply this rule's key (another argument was woven) or its cost ({@code cost: arg:N} of an
     * argument the method lacks or that is no number, array or collection): a failure, {@code on-error}.
     */
    static final byte UNAVAILABLE = 3;

    final RuleSet set;
    final Rule[] rules;
    final byte[] keySource;
    /** Why the key is missing, per rule: for {@link #UNAVAILABLE}, and for {@link #REQUEST} without a request. */
    final String[] missingKey;

    private SiteRules(RuleSet set, Rule[] rules, byte[] keySource, String[] missingKey) {
        this.set = set;
        this.rules = rules;
        this.keySource = keySource;
        this.missingKey = missingKey;
    }

    /**
     * The rules the file matches for the site, then, for an annotated method, the rule in force for its
     * annotation's id (the file's rule of that id, else the annotation's), once.
     */
    static SiteRules of(RuleSet set, WovenSite site) {
        Rule[] buffer = new Rule[Math.max(1, set.maxMethodMatches()) + 1];
        int count = site.kind.jaxrs()
                ? set.matchJaxrs(site.className, site.methodName, buffer)
                : set.matchMethod(site.className, site.methodName, buffer);
        Rule annotated = site.annotationId == null ? null : AnnotatedRules.effective(set, site.annotationId);
        if (annotated != null && !contains(buffer, count, annotated)) {
            buffer[count++] = annotated;
        }
        Rule[] rules = java.util.Arrays.copyOf(buffer, count);
        byte[] sources = new byte[count];
        String[] missing = new String[count];
        for (int i = 0; i < count; i++) {
            KeySpec key = rules[i].key();
            sources[i] = source(key, site);
            int cost = rules[i].policy().costArgument();
            if (cost >= 0 && cost != site.costIndex) {
                // the woven code cannot hand this rule its cost: a failure of the rule, like a missing key
                sources[i] = UNAVAILABLE;
                missing[i] = "limiter: rule " + rules[i].id() + " reads its cost from arg:" + cost + " but "
                        + site.describe() + " " + costProblem(site, cost) + "; the rule fails (on-error: "
                        + rules[i].onError().spelling() + ")";
            } else if (sources[i] == UNAVAILABLE) {
                missing[i] = "limiter: rule " + rules[i].id() + " keys on " + key + " but " + site.describe()
                        + " was woven with " + site.describeKey() + "; the key is missing (on-error: "
                        + rules[i].onError().spelling() + ")";
            } else if (sources[i] == REQUEST) {
                missing[i] = "limiter: rule " + rules[i].id() + ": key " + key + " needs a servlet container (no"
                        + " servlet request on the thread calling " + site.describe() + "); the key is missing"
                        + " (on-error: " + rules[i].onError().spelling() + ")";
            }
        }
        return new SiteRules(set, rules, sources, missing);
    }

    /** Why {@code site} passes no cost from argument {@code index}. */
    private static String costProblem(WovenSite site, int index) {
        String type = site.parameterType(index);
        if (type == null) {
            return "has no argument " + index;
        }
        if (site.costIndex >= 0) {
            return "was woven with " + site.describeCost() + " (another rule's)";
        }
        return "takes a " + type + " there, not " + CostParameter.costTypes();
    }

    private static boolean contains(Rule[] rules, int count, Rule rule) {
        for (int i = 0; i < count; i++) {
            if (rules[i] == rule) {
                return true;
            }
        }
        return false;
    }

    private static byte source(KeySpec key, WovenSite site) {
        switch (key.kind()) {
            case GLOBAL:
                return GLOBAL;
            case ARG:
                return site.keyIndex == key.index() ? ARGUMENT : UNAVAILABLE;
            case PATH_PARAM:
                return site.kind.jaxrs() && key.name().equals(site.keyName) ? ARGUMENT : UNAVAILABLE;
            default:
                return REQUEST;
        }
    }
}
