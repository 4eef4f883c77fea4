package dev.limiter.demo.driver;

import dev.limiter.demo.service.PartnerRatesClient;
import dev.limiter.demo.service.PartnerShippingClient;
import dev.limiter.rules.Mode;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The closing text: what each kind of client got, what that shows, and how to look at the MBeans yourself. */
final class Summary {

    private Summary() {
    }

    static List<String> lines(List<Tally> tallies, double seconds, RuleSet rules, List<RuleRow> jmxRows,
            long pid) {
        List<String> lines = new ArrayList<>();
        long sent = 0;
        TextTable table = new TextTable("lrrrrrl", "client", "sent", "allowed", "allowed/s", "429", "failed",
                "what the rules should do");
        for (Tally tally : tallies) {
            long ok = tally.ok.sum();
            sent += tally.sent.sum();
            table.add(tally.scenario.label(), RuleTable.count(tally.sent.sum()), RuleTable.count(ok),
                    String.format(Locale.ROOT, "%.1f", ok / seconds), RuleTable.count(tally.limited.sum()),
                    RuleTable.count(tally.failed.sum()), tally.scenario.expectation());
        }
        lines.add("");
        lines.add(String.format(Locale.ROOT, "What the demo showed (%.0f s, %,d requests):", seconds, sent));
        lines.addAll(table.lines());
        lines.add("");
        lines.add("(Rates are what the clients managed to send: on a busy machine they fall behind their schedule.)");
        lines.add("- Over-limit clients got 429 with Retry-After and RateLimit headers; clients within their limit,");
        lines.add("  on the same endpoints at the same time, were not affected: limits are per key.");
        lines.add("- The spoofer wrote a new X-Forwarded-For address on every request and was still limited as one");
        lines.add("  client: only the address the trusted proxy appended counts (client-ip in the rules file).");
        lines.add("- The slow report is limited by requests in flight, not per second: a 4th call while three run");
        lines.add("  is rejected at once instead of queueing behind them.");
        lines.add("- The catalog limit sits on the Jersey resource method itself (a jaxrs: rule), keyed on its");
        lines.add("  @PathParam; the quotes limit sits on a plain method, PriceCalculator.quote (a method: rule):");
        lines.add("  over it the method throws, the orders endpoint answers without a price, and only the JMX");
        lines.add("  table shows those rejections.");
        RuleRow partner = find(jmxRows, PartnerRatesClient.RULE);
        lines.add("- The partner client's limit is declared in code, not in the rules file: @Limit(onLimit =");
        lines.add("  \"wait\", maxWait = \"250ms\") on PartnerRatesClient.rate (JMX Source: annotation ...). Over");
        lines.add("  20/s its callers wait their turn instead of failing" + (partner != null && partner.waited() >= 0
                ? ": " + RuleTable.count(partner.waited()) + " calls waited, " + RuleTable.count(partner.rejected())
                        + " would have waited too long (no rate)." : "."));
        RuleRow shipping = find(jmxRows, PartnerShippingClient.RULE);
        lines.add("- The shipping endpoint calls a partner's HTTP API with the JDK HttpClient; an http-client: rule");
        lines.add("  paces those outgoing calls to the partner's 10/s, with no code in the client" + (shipping != null
                && shipping.waited() >= 0 ? ":" : "."));
        if (shipping != null && shipping.waited() >= 0) {
            lines.add("  " + RuleTable.count(shipping.waited()) + " calls waited, " + RuleTable.count(shipping.rejected())
                    + " would have waited too long (no quote).");
        }
        for (Rule rule : rules.rules()) {
            if (rule.mode() == Mode.DRY_RUN) {
                RuleRow row = find(jmxRows, rule.id());
                lines.add("- " + rule.id() + " is a dry run: it rejected nothing"
                        + (row != null && row.wouldReject() >= 0
                                ? " but counted " + RuleTable.count(row.wouldReject()) + " would-rejects, what"
                                        + " its cap of " + RuleTable.limit(rule) + " would have refused."
                                : "; its would-reject count is only visible over JMX."));
            }
        }
        lines.add("");
        lines.add("See the same counters in JConsole (they live as long as the service does):");
        lines.add("  ./scripts/demo --keep        # the service stays up after the traffic, until Ctrl-C");
        lines.add("  jconsole <pid>               # the pid is printed at start" + (pid > 0 ? " (this run: " + pid
                + ")" : ""));
        lines.add("  then the MBeans tab: dev.limiter > Limiter (RulesFile, RuleCount, ReloadCount, Enabled)");
        lines.add("  and dev.limiter > Rule > <id> (Allowed, Rejected, WouldReject, Waited, Source, Limit, Mode...)");
        lines.add("Or without a JMX client, from a terminal (docs/cli.md):");
        lines.add("  java -jar agent/target/limiter.jar status " + (pid > 0 ? pid : "<pid>")
                + " --watch   # the same table, refreshed");
        lines.add("Edit examples/rules.yml while it runs: the agent reloads it and the counters follow.");
        return lines;
    }

    private static RuleRow find(List<RuleRow> rows, String id) {
        if (rows == null) {
            return null;
        }
        for (RuleRow row : rows) {
            if (row.id().equals(id)) {
                return row;
            }
        }
        return null;
    }
}
