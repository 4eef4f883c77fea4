package dev.limiter.it.jaxrs;

import dev.limiter.api.Limit;

/** An annotation the agent refuses (the window has no valid unit): logged, and the method runs unlimited. */
public class BadlyAnnotated {

    @Limit(limit = 1, window = "5 minutes")
    public String send() {
        return "sent anyway";
    }
}
