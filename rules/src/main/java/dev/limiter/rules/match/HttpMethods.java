package dev.limiter.rules.match;

/**
 * HTTP methods as bits, so a rule's {@code methods:} list is one {@code int} and the request-path test is one AND.
 *
 * <p>The switch on the method string compares against constants: no allocation, no map lookup. A method that is
 * not one of the nine standard ones gets {@link #OTHER}, which only rules without a method list accept.
 */
public final class HttpMethods {

    public static final int OTHER = 1 << 9;
    public static final int ALL = -1;
    public static final String[] NAMES = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"};

    private HttpMethods() {
    }

    /** The bit of a request's method (case-sensitive, as HTTP says); {@link #OTHER} for anything else. */
    public static int bit(String method) {
        if (method == null) {
            return OTHER;
        }
        switch (method) {
            case "GET":
                return 1;
            case "HEAD":
                return 1 << 1;
            case "POST":
                return 1 << 2;
            case "PUT":
                return 1 << 3;
            case "DELETE":
                return 1 << 4;
            case "PATCH":
                return 1 << 5;
            case "OPTIONS":
                return 1 << 6;
            case "TRACE":
                return 1 << 7;
            case "CONNECT":
                return 1 << 8;
            default:
                return OTHER;
        }
    }
}
