package annotest;

import dev.limiter.api.Limit;

/** A class-level annotation: each public method gets its own rule (default ids); a method's own wins. */
@Limit(limit = 3, window = "1h")
public class Reports {

    public String daily() {
        return "daily " + helper();
    }

    public String weekly() {
        return "weekly";
    }

    @Limit(id = "anno-export", limit = 1, window = "1h")
    public String export() {
        return "export";
    }

    /** Not public: the class-level annotation does not cover it. */
    String helper() {
        return "helper";
    }
}
