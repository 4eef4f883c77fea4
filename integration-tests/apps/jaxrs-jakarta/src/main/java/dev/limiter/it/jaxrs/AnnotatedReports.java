package dev.limiter.it.jaxrs;

import dev.limiter.api.Limit;

/** A class-level annotation: each public method is limited under its default id. */
@Limit(limit = 3, window = "1h")
public class AnnotatedReports {

    public String daily() {
        return "daily report";
    }
}
