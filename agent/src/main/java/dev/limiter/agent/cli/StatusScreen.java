package dev.limiter.agent.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code limiter status} as text: one screen with what the demo's live table shows. A header (version, pid,
 * kill switch, rules file), the reload status (with the refusal's errors when the last reload failed), the
 * store, one row per rule (match, key, strategy, limit, mode, counters, active keys) and the keys rejected
 * most. Numbers are plain digits so scripts can pick them out; "-" is a value the agent did not report.
 */
final class StatusScreen {

    private StatusScreen() {
    }

    static List<String> lines(LimiterStatus status) {
        List<String> lines = new ArrayList<>();
        lines.add("limiter " + TerminalText.line(status.version()) + " in pid " + status.pid() + ": "
                + (status.enabled() ? "enabled" : "DISABLED (kill switch thrown: every request is allowed)"));
        lines.add("rules:   " + plural(status.ruleCount(), "rule") + " in force from "
                + TerminalText.line(status.rulesFile()));
        lines.add("reloads: " + number(status.reloads()) + " ok, " + number(status.failedReloads()) + " failed; "
                + lastReload(status));
        if (status.lastReloadFailed()) {
            for (String error : status.lastReloadError().split("\\R")) {
                lines.add("         " + TerminalText.line(error));
            }
        }
        if (status.reweavingPending()) {
            lines.add("methods: re-weaving loaded classes for the new method rules, " + TerminalText.line(
                    status.reweaving()) + ": calls of those methods are not checked yet");
        } else if (!status.lastReweave().isEmpty()) {
            lines.add("methods: " + TerminalText.line(status.lastReweave()));
        }
        lines.add("store:   " + store(status.store()));
        if (status.internalErrors() > 0) {
            lines.add("errors:  " + status.internalErrors() + " internal errors (each request was allowed; the "
                    + "application's log has them)");
        }
        lines.add("");
        if (status.rules().isEmpty()) {
            lines.add("no rules in force");
            return lines;
        }
        TextColumns table = new TextColumns("llllllrrrr", "rule", "match", "key", "strategy", "limit", "mode",
                "allowed", "rejected", "would-reject", "active keys");
        for (RuleStatus rule : status.rules()) {
            table.add(TerminalText.line(rule.id()), TerminalText.line(rule.match()), TerminalText.line(rule.key()),
                    TerminalText.line(rule.strategy()), limit(rule), mode(rule), number(rule.allowed()),
                    number(rule.rejected()), number(rule.wouldReject()), number(rule.activeKeys()));
        }
        lines.addAll(table.lines());
        notes(status, lines);
        topKeys(status, lines);
        return lines;
    }

    private static String lastReload(LimiterStatus status) {
        if (status.lastReloadTime().isEmpty()) {
            return "no reload yet";
        }
        return "last load " + TerminalText.line(status.lastReloadTime())
                + (status.lastReloadFailed() ? " FAILED, the rules in force stay:" : " ok");
    }

    private static String store(StoreStatus store) {
        if (store == null) {
            return "- (no store MBean)";
        }
        if (store.isLocal()) {
            return "local (this JVM's memory)";
        }
        return TerminalText.line(store.type()) + " " + TerminalText.line(store.uri()) + " "
                + TerminalText.line(store.state()).toUpperCase(java.util.Locale.ROOT)
                + ", on-failure " + TerminalText.line(store.onFailure()) + "; " + number(store.roundTrips())
                + " round trips, " + number(store.errors()) + " errors, " + number(store.timeouts()) + " timeouts, "
                + number(store.fallbacks()) + " fallbacks, " + number(store.circuitOpens()) + " circuit opens; "
                + "latency p50 " + number(store.latencyP50Micros()) + " us, p99 " + number(store.latencyP99Micros())
                + " us, max " + number(store.latencyMaxMicros()) + " us";
    }

    /**
     * The limit as the rules file says it: {@code 10/1s}, {@code 10/1s burst 20}, {@code 3 at once}; for an
     * adaptive rule, the limit it found: {@code 14 at once (adaptive, max 1000)}.
     */
    static String limit(RuleStatus rule) {
        if (rule.limit() < 0) {
            return "-";
        }
        if (rule.strategy().equals("concurrency")) {
            return rule.limit() + " at once";
        }
        if (rule.strategy().equals("adaptive")) {
            return (rule.adaptiveLimit() < 0 ? "?" : rule.adaptiveLimit()) + " at once (adaptive, max " + rule.limit()
                    + ")";
        }
        String text = rule.limit() + (rule.windowMillis() > 0 ? "/" + window(rule.windowMillis()) : "");
        if (rule.capacity() >= 0 && rule.capacity() != rule.limit()) {
            text += (rule.strategy().equals("leaky-bucket") ? " queue " : " burst ") + rule.capacity();
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

    private static String mode(RuleStatus rule) {
        String mode = rule.mode().isEmpty() ? "-" : TerminalText.line(rule.mode());
        return rule.modeOverridden() ? mode + " (file: " + TerminalText.line(rule.fileMode()) + ")" : mode;
    }

    /** What only some rules have: errors decided by on-error, new keys refused because max-keys was full. */
    private static void notes(LimiterStatus status, List<String> lines) {
        for (RuleStatus rule : status.rules()) {
            if (rule.noClassLoaded()) {
                lines.add("  " + TerminalText.line(rule.id()) + ": no class it names has loaded, so it limits nothing"
                        + " yet (a misspelt class name? the agent's log names the nearest loaded class): "
                        + TerminalText.line(rule.match()));
            } else if (rule.allowed() == 0 && rule.rejected() == 0 && rule.wouldReject() == 0
                    && rule.errors() == 0) {
                lines.add("  " + TerminalText.line(rule.id()) + ": never matched since it came in force (no"
                        + " traffic yet, or check what it matches: " + TerminalText.line(rule.match()) + ")");
            }
            if (rule.errors() > 0) {
                lines.add("  " + TerminalText.line(rule.id()) + ": " + plural(rule.errors(), "error")
                        + " inside the limiter, decided by on-error");
            }
            if (rule.keysRefused() > 0) {
                lines.add("  " + TerminalText.line(rule.id()) + ": " + rule.keysRefused()
                        + " requests of new keys refused (every key slot, max-keys, held live state)");
            }
        }
    }

    private static void topKeys(LimiterStatus status, List<String> lines) {
        boolean any = false;
        for (RuleStatus rule : status.rules()) {
            if (rule.topRejectedKeys().isEmpty()) {
                continue;
            }
            if (!any) {
                lines.add("");
                lines.add("keys rejected most (dry-run: would have been), most first:");
                any = true;
            }
            StringBuilder line = new StringBuilder("  ").append(TerminalText.line(rule.id())).append(':');
            for (TopKey key : rule.topRejectedKeys()) {
                line.append("  ").append(key.key().isEmpty() ? "(no key)" : TerminalText.line(key.key()))
                        .append(' ').append(key.count());
                if (key.error() > 0) {
                    line.append(" (±").append(key.error()).append(')');
                }
            }
            lines.add(line.toString());
        }
    }

    static String number(long value) {
        return value < 0 ? "-" : Long.toString(value);
    }

    private static String plural(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
