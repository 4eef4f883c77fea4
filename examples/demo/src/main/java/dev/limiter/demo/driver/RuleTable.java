package dev.limiter.demo.driver;

import dev.limiter.core.LimitConfig;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The live per-rule table, in the order of the rules file and then the rules declared in code ({@code @Limit}):
 * from the limiter's MBeans when the service has them, otherwise from what the driver observed (and the title
 * says which; the driver cannot see a {@code @Limit} rule from outside).
 */
final class RuleTable {

    private RuleTable() {
    }

    /**
     * Rows from JMX: the limiter's own counters, the rules file's rules in its order, then the rules declared in
     * code ({@code @Limit}) that the file does not have.
     */
    static TextTable fromJmx(RuleSet rules, List<RuleRow> rows) {
        TextTable table = new TextTable("lllllrrrrr", "rule", "strategy", "key", "mode", "limit", "allowed",
                "rejected", "would-reject", "waited", "active keys");
        for (Rule rule : rules.rules()) {
            RuleRow row = find(rows, rule.id());
            table.add(rule.id(), row == null || row.strategy() == null ? rule.strategyName() : row.strategy(),
                    rule.key().toString(), row == null || row.mode() == null ? rule.mode().spelling() : mode(row),
                    row == null ? limit(rule) : limit(rule, row), count(row == null ? -1 : row.allowed()),
                    count(row == null ? -1 : row.rejected()), count(row == null ? -1 : row.wouldReject()),
                    count(row == null ? -1 : row.waited()), count(row == null ? -1 : row.activeKeys()));
            if (row != null) {
                for (String override : row.overrides()) {
                    addOverride(table, override);
                }
            }
        }
        for (RuleRow row : annotated(rules, rows)) {
            table.add(row.id(), row.strategy() == null ? "-" : row.strategy(), row.key() == null ? "-" : row.key(),
                    row.mode() == null ? "-" : mode(row), limit(row), count(row.allowed()), count(row.rejected()),
                    count(row.wouldReject()), count(row.waited()), count(row.activeKeys()));
        }
        return table;
    }

    /**
     * One line per rule declared in code ({@code @Limit}) and not in the rules file: where it is declared (its
     * MBean's {@code Source}) and, for a rule that waits, the mean wait.
     */
    static List<String> annotationLines(RuleSet rules, List<RuleRow> rows) {
        List<String> lines = new ArrayList<>();
        for (RuleRow row : annotated(rules, rows)) {
            String waits = row.waited() > 0 && row.waitMillisTotal() >= 0
                    ? String.format(Locale.ROOT, "; %,d calls waited, %.1f ms on average", row.waited(),
                            (double) row.waitMillisTotal() / row.waited())
                    : "";
            lines.add(row.id() + ": Source " + row.source() + " (a @Limit in code, no rules-file entry)" + waits);
        }
        return lines;
    }

    /** The JMX rows of {@code @Limit} rules the rules file does not override, by id. */
    private static List<RuleRow> annotated(RuleSet rules, List<RuleRow> rows) {
        List<RuleRow> annotated = new ArrayList<>();
        for (RuleRow row : rows) {
            if (row.annotated() && rules.rule(row.id()) == null) {
                annotated.add(row);
            }
        }
        annotated.sort(Comparator.comparing(RuleRow::id));
        return annotated;
    }

    private static String mode(RuleRow row) {
        return row.mode().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The limit of a rule known only from its MBean (a {@code @Limit} rule). */
    static String limit(RuleRow row) {
        if (row.limits() != null && row.limits().contains(",")) {
            return row.limits();
        }
        if (row.limit() < 0) {
            return "-";
        }
        if ("concurrency".equals(row.strategy())) {
            return row.limit() + " at once";
        }
        String text = row.limit() + "/" + window(row.windowMillis());
        if (row.capacity() >= 0 && row.capacity() != row.limit()) {
            text += ("leaky-bucket".equals(row.strategy()) ? " queue " : " burst ") + row.capacity();
        }
        return text;
    }

    /**
     * One override under its rule, from the MBean's line {@code gold: keys [k] -> 50/1s, 2000/1m (allowed 12,
     * rejected 0, would-reject 0)}: its name and what it applies to, its limits, its own counts.
     */
    private static void addOverride(TextTable table, String line) {
        int colon = line.indexOf(": ");
        int arrow = line.indexOf(" -> ");
        int open = line.lastIndexOf(" (allowed ");
        if (colon < 0 || arrow < colon || open < arrow) {
            return;
        }
        String[] counts = line.substring(open + " (allowed ".length(), line.length() - 1).split(", [a-z-]+ ");
        table.add("  + " + line.substring(0, colon), "", line.substring(colon + 2, arrow), "",
                line.substring(arrow + 4, open), counts.length > 0 ? grouped(counts[0]) : "-",
                counts.length > 1 ? grouped(counts[1]) : "-", counts.length > 2 ? grouped(counts[2]) : "-", "", "");
    }

    private static String grouped(String number) {
        try {
            return count(Long.parseLong(number.trim()));
        } catch (NumberFormatException e) {
            return number;
        }
    }

    /** Rows from the driver's own observations: matched requests, their 2xx, and the 429s naming the rule. */
    static TextTable fromObservations(RuleSet rules, ObservedRules observed) {
        TextTable table = new TextTable("lllllrrr", "rule", "strategy", "key", "mode", "limit", "matched", "2xx",
                "429 by rule");
        for (Rule rule : rules.rules()) {
            ObservedRules.Counts counts = observed.counts(rule.id());
            table.add(rule.id(), rule.strategyName(), rule.key().toString(), rule.mode().spelling(), limit(rule),
                    count(counts.matched.sum()), count(counts.ok.sum()), count(counts.rejected.sum()));
        }
        return table;
    }

    /** The rule's limit in words, as the rules file says it: {@code 10/1s burst 20}, {@code 3 at once}. */
    static String limit(Rule rule) {
        if (rule.policy().main().limiters().length > 1) {
            return rule.policy().main().describe();
        }
        LimitConfig config = rule.limiter().config();
        return limit(rule, config.limit(), config.windowMillis(), config.capacity());
    }

    /** The limit in force as the MBean reports it: it follows reloads. */
    static String limit(Rule rule, RuleRow row) {
        if (row.limits() != null && row.limits().contains(",")) {
            return row.limits(); // several limits: the MBean words them, e.g. 20/1s, 300/1m
        }
        LimitConfig config = rule.limiter().config();
        if (row.limit() < 0 || row.windowMillis() < 0) {
            return limit(rule);
        }
        long capacity = row.capacity();
        if (capacity < 0) {
            boolean sameAsFile = row.limit() == config.limit() && row.windowMillis() == config.windowMillis();
            capacity = sameAsFile ? config.capacity() : row.limit();
        }
        return limit(rule, row.limit(), row.windowMillis(), capacity);
    }

    private static String limit(Rule rule, long limit, long windowMillis, long capacity) {
        if (rule.limiter().strategy().releasesOnExit()) {
            return limit + " at once";
        }
        String text = limit + "/" + window(windowMillis);
        if (capacity != limit) {
            text += ("leaky-bucket".equals(rule.strategyName()) ? " queue " : " burst ") + capacity;
        }
        return text;
    }

    static String window(long millis) {
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    static String count(long value) {
        return value < 0 ? "-" : String.format(java.util.Locale.ROOT, "%,d", value);
    }

    private static RuleRow find(List<RuleRow> rows, String id) {
        for (RuleRow row : rows) {
            if (row.id().equals(id)) {
                return row;
            }
        }
        return null;
    }
}
