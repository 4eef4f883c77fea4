package dev.limiter.agent.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A request a rule rejected, or would have rejected in dry-run. Off unless a recording enables it. */
@Name("dev.limiter.Rejection")
@Label("Rejection")
@Category("Limiter")
@Description("A request over a rule's limit: rejected (enforce) or let through (dry-run)")
@Enabled(false)
@StackTrace(false)
final class RejectionEvent extends jdk.jfr.Event {

    @Label("Rule")
    String rule;

    @Label("Key")
    @Description("The client's key, escaped as JMX shows it")
    String key;

    @Label("Strategy")
    String strategy;

    @Label("Retry After")
    @Timespan(Timespan.MILLISECONDS)
    long retryAfter;

    @Label("Dry Run")
    @Description("True if the rule is in dry-run: the request was let through")
    boolean dryRun;
}
