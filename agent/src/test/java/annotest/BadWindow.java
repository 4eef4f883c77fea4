package annotest;

import dev.limiter.api.Limit;

/** An annotation the rules file's checks refuse: its method runs unlimited. */
public class BadWindow {

    @Limit(limit = 1, window = "5 minutes")
    public String send() {
        return "sent";
    }
}
