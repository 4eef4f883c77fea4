package annotest;

import dev.limiter.api.Limit;

/** An annotation with its own exception and strategy attributes. */
public class Charged {

    @Limit(id = "anno-charge", limit = 1, window = "1h", strategy = "token-bucket", capacity = 1,
            throwClass = QuotaExceeded.class)
    public String charge() {
        return "charged";
    }

    @Limit(id = "anno-dry", limit = 1, window = "1h", mode = "dry-run")
    public String preview() {
        return "preview";
    }
}
