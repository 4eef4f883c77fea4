package dev.limiter.it;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static dev.limiter.it.harness.RateLimitHeaders.draft;
import static dev.limiter.it.harness.RateLimitHeaders.number;
import static dev.limiter.it.harness.RateLimitHeaders.policy;
import static dev.limiter.it.harness.RateLimitHeaders.retryAfter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RateLimitHeaders.Draft;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP contract every scenario server is held to, servlet ({@link AbstractLimiterServerTest}) or WebFlux
 * ({@code it/webflux}): the top of their rules files and the rules of the scenarios both run (the same ids, paths
 * and limits), and the assertions on what a client sees. Each test's rules add the scenarios of its own kind.
 */
public final class ScenarioContract {

    public static final String RESPONSE_CONTENT_TYPE = "application/problem+json";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Pattern BODY = Pattern.compile(
            "\\{\"type\":\"rate-limited\",\"rule\":\"([^\"]+)\",\"retry_after\":(\\d+)}");

    private ScenarioContract() {
    }

    /** The path of version N's marker rule (limit 1): its second request is rejected exactly when N is live. */
    public static String markerPath(int version) {
        return "/api/items/rules-v" + version;
    }

    /**
     * The rules file up to and including the first rules: the response section ({@code headers: both}, the body
     * {@link #assertRejected} expects), the trusted proxies, version's marker rule, then the shared scenarios'
     * rules. Each scenario owns its rule id and path; windows are an hour (a minute for {@code exact}, which
     * checks {@code w=60}).
     */
    public static String rules(int version, String trustedProxies, String dryMode, int reloadLimit) {
        return """
                version: 1
                response:
                  status: 429
                  content-type: %s
                  body: '{"type":"rate-limited","rule":"${rule}","retry_after":${retry_after}}'
                  headers: both
                client-ip:
                  trusted-proxies: [%s]
                rules:
                  - id: rules-v%d
                    match: { http: { path: %s } }
                    limit: 1
                    window: 1h
                  - id: exact
                    match: { http: { path: /api/items/exact, methods: [GET] } }
                    limit: 5
                    window: 1m
                    strategy: fixed-window
                  - id: dry
                    match: { http: { path: /api/items/dry } }
                    limit: 2
                    window: 1h
                    mode: %s
                  - id: xff-untrusted
                    match: { http: { path: /api/items/xff-untrusted } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: xff-trusted
                    match: { http: { path: /api/items/xff-trusted } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: by-header
                    match: { http: { path: /api/items/by-header } }
                    key: header:X-Api-Key
                    limit: 1
                    window: 1h
                  - id: by-param
                    match: { http: { path: /api/items/by-param } }
                    key: param:user
                    limit: 1
                    window: 1h
                  - id: by-path-param
                    match: { http: { path: '/api/users/{user}' } }
                    key: path-param:user
                    limit: 1
                    window: 1h
                  - id: reload
                    match: { http: { path: /api/items/reload } }
                    limit: %d
                    window: 1h
                """.formatted(RESPONSE_CONTENT_TYPE, trustedProxies, version, markerPath(version), dryMode,
                reloadLimit);
    }

    /** 429, Retry-After in [1, maxRetryAfter], the configured body and content type. */
    public static void assertRejected(HttpResponse<String> response, String rule, long maxRetryAfter) {
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(429);
        long retryAfter = retryAfter(response);
        assertThat(retryAfter).as(describe(response)).isBetween(1L, maxRetryAfter);
        assertThat(response.headers().firstValue("Content-Type")).as(describe(response))
                .hasValueSatisfying(type -> assertThat(type).startsWith(RESPONSE_CONTENT_TYPE));
        Matcher body = BODY.matcher(response.body());
        assertThat(body.matches()).as("configured body: %s", describe(response)).isTrue();
        assertThat(body.group(1)).isEqualTo(rule);
        assertThat(Long.parseLong(body.group(2))).isBetween(1L, maxRetryAfter);
    }

    /** Draft and legacy headers ({@code headers: both}) describing {@code rule}, read at epoch second {@code now}. */
    public static void assertRateLimitHeaders(HttpResponse<String> response, String rule, long limit,
            long windowSeconds, long remaining, long now) {
        assertThat(policy(response)).as(describe(response))
                .isEqualTo("\"" + rule + "\";q=" + limit + ";w=" + windowSeconds);
        Draft draft = draft(response);
        assertThat(draft.rule()).isEqualTo(rule);
        assertThat(draft.remaining()).as(describe(response)).isEqualTo(remaining);
        assertThat(draft.resetSeconds()).as(describe(response)).isBetween(0L, windowSeconds);
        assertThat(number(response, "X-RateLimit-Limit")).isEqualTo(limit);
        assertThat(number(response, "X-RateLimit-Remaining")).isEqualTo(remaining);
        assertThat(number(response, "X-RateLimit-Reset")).as(describe(response))
                .isBetween(now - 2, now + windowSeconds + 2);
    }

    /**
     * Sends {@code parallel} requests to {@code path?gate=NAME} at once: exactly {@code limit} must reach the gate
     * (admitted, held open) and the rest must be rejected at once ({@code rejected} checks each); then opens the
     * gate and expects the admitted ones to finish with 200. Every request either reaches the gate or completes,
     * so the wait ends as soon as all are accounted for, and one admission too many shows at once. The caller then
     * waits for the permits to come back (a client can see its response before the server released the permit).
     */
    public static void assertConcurrencyLimit(HttpApi http, String path, String gate, int parallel, int limit,
            Consumer<HttpResponse<String>> rejected) {
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < parallel; i++) {
            responses.add(http.getAsync(path + "?gate=" + gate));
        }
        String arrivals = "/app/gate?name=" + gate;
        try {
            await(parallel + " requests to " + path + " admitted or rejected").atMost(TIMEOUT).pollInterval(POLL)
                    .until(() -> http.number(arrivals) > limit
                            || http.number(arrivals) + completed(responses).size() == parallel);
            assertThat(http.number(arrivals)).as("requests admitted at once, concurrency limit %d", limit)
                    .isEqualTo(limit);
            completed(responses).forEach(rejected);
        } finally {
            http.get("/app/release?name=" + gate);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < parallel; i++) {
            expected.add(i < limit ? 200 : 429);
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            statuses.add(response.orTimeout(90, TimeUnit.SECONDS).join().statusCode());
        }
        assertThat(statuses).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static List<HttpResponse<String>> completed(List<CompletableFuture<HttpResponse<String>>> responses) {
        List<HttpResponse<String>> done = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            if (response.isDone()) {
                done.add(response.join());
            }
        }
        return done;
    }
}
