package dev.limiter.agent.micronaut;

import dev.limiter.agent.http.HttpExchange;
import java.util.Arrays;

/**
 * An event loop's buffers for its requests' decisions ({@link HttpExchange}), plus the response the gate writes to:
 * Micronaut has no response before its route makes one, so the status and headers of a rejection, or the
 * rate-limit headers of an admitted request, are kept here until {@link MicronautApi} turns them into a Micronaut
 * response (or hands them to the one the route makes). Reused: a request that sets nothing allocates nothing here.
 */
final class MicronautExchange extends HttpExchange {

    int status;
    /** Names and values, alternating. */
    private String[] headers = new String[8];
    private int length;

    MicronautExchange() {
        super(false); // an event loop never parks
    }

    void clearResponse() {
        status = 0;
        for (int i = 0; i < length; i++) {
            headers[i] = null;
        }
        length = 0;
    }

    void header(String name, String value) {
        if (length == headers.length) {
            headers = Arrays.copyOf(headers, length * 2);
        }
        headers[length++] = name;
        headers[length++] = value;
    }

    boolean hasHeaders() {
        return length > 0;
    }

    /** The names and values set since {@link #clearResponse}, alternating, in a new array; then cleared. */
    String[] takeHeaders() {
        String[] taken = Arrays.copyOf(headers, length);
        clearResponse();
        return taken;
    }
}
