package dev.limiter.agent.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A failed round trip to the Redis store (on-failure then decides). Off unless a recording enables it. */
@Name("dev.limiter.StoreFailure")
@Label("Store Failure")
@Category("Limiter")
@Description("A round trip to the shared store that failed; the rule's on-failure decided the request")
@Enabled(false)
@StackTrace(false)
final class StoreFailureEvent extends jdk.jfr.Event {

    @Label("Store")
    String store;

    @Label("Kind")
    @Description("timeout or error")
    String kind;

    @Label("Message")
    String message;
}
