package dev.limiter.agent.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A reload of the rules file, successful or refused. Off unless a recording enables it. */
@Name("dev.limiter.Reload")
@Label("Reload")
@Category("Limiter")
@Description("A reload of the rules file: new rules in force, or refused (the previous rules stay)")
@Enabled(false)
@StackTrace(false)
final class ReloadEvent extends jdk.jfr.Event {

    @Label("OK")
    boolean ok;

    @Label("Error")
    @Description("Every problem of a refused file, one per line; empty on success")
    String error;

    @Label("Rule Count")
    @Description("Rules in force after the reload")
    int ruleCount;

    @Label("Load Time")
    @Description("Reading, parsing and compiling the file")
    @Timespan(Timespan.NANOSECONDS)
    long loadTime;
}
