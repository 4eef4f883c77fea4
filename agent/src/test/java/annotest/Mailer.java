package annotest;

import dev.limiter.api.Limit;

/** A method limited by its annotation alone, keyed by its first argument. */
public class Mailer {

    @Limit(id = "anno-send", limit = 2, window = "1h", key = "arg:0")
    public String send(String to) {
        return "sent " + to;
    }

    /** Not annotated: never limited. */
    public String other(String to) {
        return "other " + to;
    }
}
