package dev.limiter.it.harness;

import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the limiter's response headers as the HTTP contract defines them, failing with the whole header set
 * when one is missing or malformed: {@code RateLimit: "<rule>";r=<remaining>;t=<reset seconds>} (IETF httpapi
 * draft), its {@code RateLimit-Policy}, the legacy {@code X-RateLimit-*} set and {@code Retry-After}.
 */
public final class RateLimitHeaders {

    /** The parsed draft {@code RateLimit} header. */
    public record Draft(String rule, long remaining, long resetSeconds) {
    }

    private static final Pattern DRAFT = Pattern.compile("\"([^\"]+)\";r=(\\d+);t=(\\d+)");

    private RateLimitHeaders() {
    }

    public static Draft draft(HttpResponse<?> response) {
        String value = required(response, "RateLimit");
        Matcher matcher = DRAFT.matcher(value);
        if (!matcher.matches()) {
            throw new AssertionError("malformed RateLimit header '" + value + "' in " + describe(response));
        }
        return new Draft(matcher.group(1), Long.parseLong(matcher.group(2)), Long.parseLong(matcher.group(3)));
    }

    public static String policy(HttpResponse<?> response) {
        return required(response, "RateLimit-Policy");
    }

    /** A header that must be a whole number, e.g. {@code Retry-After} or {@code X-RateLimit-Remaining}. */
    public static long number(HttpResponse<?> response, String header) {
        String value = required(response, header);
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new AssertionError(header + " is not a whole number: '" + value + "' in " + describe(response));
        }
    }

    public static long retryAfter(HttpResponse<?> response) {
        return number(response, "Retry-After");
    }

    public static String required(HttpResponse<?> response, String header) {
        return response.headers().firstValue(header)
                .orElseThrow(() -> new AssertionError("no " + header + " header in " + describe(response)));
    }

    /** Status, headers and body, for failure messages. */
    public static String describe(HttpResponse<?> response) {
        return response.request().uri() + " -> " + response.statusCode() + " " + response.headers().map()
                + " body=" + response.body();
    }
}
