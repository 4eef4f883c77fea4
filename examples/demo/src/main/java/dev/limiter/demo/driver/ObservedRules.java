package dev.limiter.demo.driver;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The per-rule table as the driver sees it from outside, for when the service has no limiter MBeans: which
 * rules each request met (the driver compiles the same rules file), how many of those got a 2xx, and how many
 * 429s named the rule. A dry-run rule's would-rejects are invisible from outside; only JMX shows them. So are
 * the calls a rule on code ({@code jaxrs:}, {@code method:}) met: from outside only the 429s that name it show.
 */
final class ObservedRules {

    /** Counters of one rule. */
    static final class Counts {
        final LongAdder matched = new LongAdder();
        final LongAdder ok = new LongAdder();
        final LongAdder rejected = new LongAdder();
    }

    private final RuleSet rules;
    private final Map<String, Counts> byId = new LinkedHashMap<>();

    ObservedRules(RuleSet rules) {
        this.rules = rules;
        for (Rule rule : rules.rules()) {
            byId.put(rule.id(), new Counts());
        }
    }

    void record(String method, String path, int status, String rejectingRule) {
        Rule[] matched = new Rule[Math.max(1, rules.maxHttpMatches())];
        int count = rules.matchHttp(method, path, matched);
        for (int i = 0; i < count; i++) {
            Counts counts = byId.get(matched[i].id());
            counts.matched.increment();
            if (status >= 200 && status < 300) {
                counts.ok.increment();
            }
        }
        if (rejectingRule != null && byId.containsKey(rejectingRule)) {
            byId.get(rejectingRule).rejected.increment();
        }
    }

    Counts counts(String id) {
        return byId.get(id);
    }
}
