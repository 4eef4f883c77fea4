package dev.limiter.it.jaxrs;

import dev.limiter.api.Limit;

/** Limited by its annotation: no rule of the rules file names it (a rule with its id overrides it). */
public class AnnotatedMailer {

    @Limit(id = "annotated-send", limit = 2, window = "1h", key = "arg:0")
    public String send(String to) {
        return "sent to " + to;
    }
}
