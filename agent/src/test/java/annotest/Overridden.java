package annotest;

import dev.limiter.api.Limit;

/** An annotation that a rules-file rule with its id replaces while it is in the file. */
public class Overridden {

    @Limit(id = "anno-override", limit = 1, window = "1h", key = "arg:0")
    public String call(String key) {
        return "called " + key;
    }
}
