package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.agent.testing.FailingStrategies;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.reload.RuleSetHolder;
import jakarta.servlet.DispatcherType;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * The servlet decision against real rules, driven through the bridge as woven code drives it, with fake
 * requests: limits, headers, rejections, dry-run, concurrency release, counting once, and failure handling
 * (rules on a strategy that always throws, {@code FailingStrategy}).
 */
class ServletLimiterTest {

    @TempDir
    Path dir;

    private BridgeRules bridge;
    private RuleSetHolder holder;
    private ServletLimiter limiter;

    @AfterEach
    void tearDown() {
        if (bridge != null) {
            bridge.close();
        }
    }

    private void rules(String rulesYaml) throws Exception {
        bridge = BridgeRules.install(dir, rulesYaml);
        holder = bridge.holder;
        limiter = bridge.limiter;
    }

    private static boolean call(FakeHttp http) {
        return BridgeRules.call(http);
    }

    private static FakeHttp get(String path) {
        return new FakeHttp("jakarta.servlet", path);
    }

    @Test
    void admitsTheLimitWithHeadersThenRejectsWithTheConfiguredResponse() throws Exception {
        rules("""
                response:
                  status: 503
                  content-type: text/plain
                  body: 'slow down, ${rule}'
                  headers: both
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 2
                    window: 1m
                """);
        FakeHttp first = get("/api/x");
        assertThat(call(first)).isFalse();
        assertThat(first.responseHeaders).containsEntry("RateLimit-Policy", "\"api\";q=2;w=60")
                .containsEntry("X-RateLimit-Limit", "2").containsEntry("X-RateLimit-Remaining", "1");
        assertThat(first.responseHeaders.get("RateLimit")).startsWith("\"api\";r=1;t=");
        assertThat(call(get("/api/y"))).isFalse();

        FakeHttp third = get("/api/z");
        assertThat(call(third)).isTrue();
        assertThat(third.status).isEqualTo(503);
        assertThat(third.contentType).isEqualTo("text/plain");
        assertThat(third.body()).isEqualTo("slow down, api");
        assertThat(Long.parseLong(third.responseHeaders.get("Retry-After"))).isBetween(1L, 60L);
        assertThat(third.responseHeaders).containsEntry("X-RateLimit-Remaining", "0");
        assertThat(holder.current().rule("api").stats().allowed().sum()).isEqualTo(2);
        assertThat(holder.current().rule("api").stats().rejected().sum()).isEqualTo(1);

        FakeHttp other = get("/other");
        assertThat(call(other)).isFalse();
        assertThat(other.responseHeaders).isEmpty();
    }

    @Test
    void headersNoneSendsOnlyRetryAfterOnRejections() throws Exception {
        rules("""
                response: { headers: none }
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 1
                    window: 1m
                """);
        FakeHttp first = get("/api/x");
        assertThat(call(first)).isFalse();
        assertThat(first.responseHeaders).isEmpty();
        FakeHttp second = get("/api/x");
        assertThat(call(second)).isTrue();
        assertThat(second.status).isEqualTo(429);
        assertThat(second.responseHeaders).containsOnlyKeys("Retry-After");
    }

    @Test
    void dryRunCountsWhatItWouldRejectAndRejectsNothing() throws Exception {
        rules("""
                rules:
                  - id: dry
                    match: { http: { path: /dry } }
                    limit: 1
                    window: 1m
                    mode: dry-run
                """);
        for (int i = 0; i < 5; i++) {
            FakeHttp http = get("/dry");
            assertThat(call(http)).isFalse();
            assertThat(http.status).isEqualTo(200);
        }
        assertThat(holder.current().rule("dry").stats().wouldReject().sum()).isEqualTo(4);
        assertThat(holder.current().rule("dry").stats().rejected().sum()).isZero();
    }

    @Test
    void concurrencyPermitsAreHeldUntilTheRequestEnds() throws Exception {
        rules("""
                rules:
                  - id: busy
                    match: { http: { path: /busy } }
                    strategy: concurrency
                    limit: 1
                """);
        FakeHttp inFlight = get("/busy");
        assertThat(LimiterBridge.servletEnter(inFlight.request, inFlight.response)).isFalse();
        // a second request on another thread while the first is in flight
        boolean[] rejected = new boolean[1];
        Thread other = new Thread(() -> rejected[0] = call(get("/busy")));
        other.start();
        other.join();
        assertThat(rejected[0]).isTrue();
        LimiterBridge.servletExit();
        assertThat(call(get("/busy"))).isFalse();
        assertThat(call(get("/busy"))).as("released after the previous request ended").isFalse();
    }

    @Test
    void aReloadChangesWhatTheSameRequestMatchesOnTheSameThread() throws Exception {
        rules("""
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 100
                    window: 1m
                """);
        assertThat(call(get("/api/x"))).isFalse();
        assertThat(call(get("/api/x"))).isFalse(); // the second answer comes from the thread's last match
        assertStats("api", 2, 0, 0);

        Files.writeString(dir.resolve("rules.yml"), """
                version: 1
                rules:
                  - id: other
                    match: { http: { path: /other/** } }
                    limit: 1
                    window: 1m
                  - id: api-get
                    match: { http: { path: /api/x, methods: [GET] } }
                    limit: 1
                    window: 1m
                """);
        assertThat(holder.reload()).isTrue();
        assertThat(call(get("/api/x"))).isFalse();
        assertThat(call(get("/api/x"))).as("the new rule set's match, not the old one's").isTrue();
        assertStats("api-get", 1, 1, 0);
        assertStats("other", 0, 0, 0);
        FakeHttp post = get("/api/x");
        post.method = "POST";
        assertThat(call(post)).as("same path, another method: matched again, api-get is GET only").isFalse();
        assertStats("api-get", 1, 1, 0);
    }

    @Test
    void virtualThreadsBorrowTheirBuffersFromThePoolAndCountExactly() throws Exception {
        Method factory;
        try {
            factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException java17) {
            assumeTrue(false, "virtual threads need Java 21+");
            return;
        }
        rules("""
                rules:
                  - id: window
                    match: { http: { path: /api/** } }
                    limit: 1100
                    window: 1m
                  - id: pool
                    match: { http: { path: /api/** } }
                    strategy: concurrency
                    limit: 1000
                """);
        ExecutorService virtual = (ExecutorService) factory.invoke(null);
        try {
            for (int i = 0; i < 200; i++) { // one virtual thread after another
                assertThat(virtual.submit(() -> call(get("/api/x"))).get()).isFalse();
            }
            assertThat(limiter.pooledScratch()).as("200 virtual threads in turn share one set of buffers").isEqualTo(1);

            int inFlight = 16;
            Semaphore slots = new Semaphore(inFlight);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 1000; i++) { // then 1000 more, up to 16 at a time
                slots.acquire();
                results.add(virtual.submit(() -> {
                    try {
                        return call(get("/api/y"));
                    } finally {
                        slots.release();
                    }
                }));
            }
            int rejected = 0;
            for (Future<Boolean> result : results) {
                rejected += result.get() ? 1 : 0;
            }
            assertThat(rejected).isEqualTo(100);
        } finally {
            virtual.shutdown();
            assertThat(virtual.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertStats("window", 1100, 100, 0);
        assertStats("pool", 1100, 0, 0);
        assertThat(limiter.pooledScratch()).as("buffers kept: at most about as many as were in flight")
                .isBetween(1, 2 * 16);
    }

    @Test
    void anAsyncRequestHoldsItsConcurrencyPermitUntilItCompletes() throws Exception {
        rules("""
                rules:
                  - id: busy
                    match: { http: { path: /busy } }
                    strategy: concurrency
                    limit: 1
                """);
        FakeHttp async = get("/busy");
        try {
            assertThat(LimiterBridge.servletEnter(async.request, async.response)).isFalse();
            async.asyncStarted = true; // the servlet called startAsync; its first dispatch returns now
        } finally {
            LimiterBridge.servletExit();
        }
        assertThat(async.asyncListeners).hasSize(1);
        assertThat(call(get("/busy"))).as("still in flight").isTrue();

        jakarta.servlet.AsyncListener listener = (jakarta.servlet.AsyncListener) async.asyncListeners.get(0);
        listener.onComplete(null);
        assertThat(call(get("/busy"))).as("released when the async request completed").isFalse();
        listener.onTimeout(null);
        listener.onComplete(null);
        FakeHttp next = get("/busy");
        assertThat(LimiterBridge.servletEnter(next.request, next.response)).isFalse();
        try {
            assertThat(onOtherThread(get("/busy"))).as("released once only, not once per callback").isTrue();
        } finally {
            LimiterBridge.servletExit();
        }
    }

    private static boolean onOtherThread(FakeHttp http) throws InterruptedException {
        boolean[] rejected = new boolean[1];
        Thread other = new Thread(() -> rejected[0] = call(http));
        other.start();
        other.join();
        return rejected[0];
    }

    @Test
    void aRequestWithoutDispatcherTypeIsMarkedAndNotCountedAgainOnARedispatch() throws Exception {
        rules("""
                rules:
                  - id: once
                    match: { http: { path: /once } }
                    limit: 1
                    window: 1m
                """);
        FakeHttp http = get("/once");
        assertThat(call(http)).isFalse();
        // FakeHttp reports no dispatcher type (as Servlet 2.5 cannot): the request attribute marks it instead
        assertThat(http.attributes).containsKey(ServletLimiter.COUNTED);
        // async / error dispatch of the same request: new entry at depth 0, same request attributes
        assertThat(call(http)).isFalse();
        assertThat(holder.current().rule("once").stats().allowed().sum()).isEqualTo(1);
        assertThat(call(get("/once"))).isTrue();
    }

    @Test
    void onlyTheFirstDispatchOfARequestCountsAndItWritesNoAttribute() throws Exception {
        rules("""
                rules:
                  - id: once
                    match: { http: { path: /once } }
                    limit: 1
                    window: 1m
                """);
        FakeHttp http = get("/once");
        Object request = dispatched(http, DispatcherType.REQUEST);
        assertThat(LimiterBridge.servletEnter(request, http.response)).isFalse();
        LimiterBridge.servletExit();
        assertThat(http.attributes).as("a Servlet 3.0+ request needs no marker").isEmpty();
        // the same request dispatched again at depth 0, on this or another thread
        for (DispatcherType later : new DispatcherType[] {DispatcherType.ASYNC, DispatcherType.ERROR,
                DispatcherType.FORWARD, DispatcherType.INCLUDE}) {
            assertThat(onOtherThread(dispatched(http, later), http.response)).as(later.name()).isFalse();
        }
        assertThat(holder.current().rule("once").stats().allowed().sum()).isEqualTo(1);
        FakeHttp next = get("/once");
        assertThat(onOtherThread(dispatched(next, DispatcherType.REQUEST), next.response)).isTrue();
        assertThat(next.status).isEqualTo(429);
    }

    @Test
    void withoutHttpRulesTheRequestIsNotRead() throws Exception {
        rules("""
                rules:
                  - id: plain
                    match: { method: { class: com.example.Mailer, method: send } }
                    limit: 1
                    window: 1m
                """);
        Object untouchable = java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {jakarta.servlet.http.HttpServletRequest.class}, (proxy, method, args) -> {
                    throw new AssertionError("read " + method.getName());
                });
        long internalBefore = LimiterBridge.internalErrors();
        assertThat(LimiterBridge.servletEnter(untouchable, get("/x").response)).isFalse();
        assertThat(LimiterBridge.currentRequest()).isSameAs(untouchable);
        LimiterBridge.servletExit();
        assertThat(LimiterBridge.internalErrors()).isEqualTo(internalBefore);
    }

    /** {@code http}'s request as the container hands it to a dispatch of {@code type}. */
    private static Object dispatched(FakeHttp http, DispatcherType type) {
        return java.lang.reflect.Proxy.newProxyInstance(ServletLimiterTest.class.getClassLoader(),
                new Class<?>[] {jakarta.servlet.http.HttpServletRequest.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getDispatcherType")) {
                        return type;
                    }
                    try {
                        return method.invoke(http.request, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static boolean onOtherThread(Object request, Object response) throws InterruptedException {
        boolean[] rejected = new boolean[1];
        Thread other = new Thread(() -> {
            try {
                rejected[0] = LimiterBridge.servletEnter(request, response);
            } finally {
                LimiterBridge.servletExit();
            }
        });
        other.start();
        other.join();
        return rejected[0];
    }

    @Test
    void aCommittedResponseIsNotWrittenButTheRequestIsStillRejected() throws Exception {
        rules("""
                rules:
                  - id: api
                    match: { http: { path: /api } }
                    limit: 1
                    window: 1m
                """);
        call(get("/api"));
        FakeHttp committed = get("/api");
        committed.committed = true;
        assertThat(call(committed)).isTrue();
        assertThat(committed.status).isEqualTo(200);
        assertThat(committed.responseHeaders).isEmpty();
        assertThat(committed.body()).isEmpty();
    }

    @Test
    void aFailingRuleIsCountedAndResolvedByItsOnErrorPolicy() throws Exception {
        FailingStrategies.register(dir.resolve("failing-strategy"));
        rules("""
                rules:
                  - id: fault-open
                    match: { http: { path: /open } }
                    limit: 1
                    window: 1m
                    strategy: failing-for-tests
                  - id: fault-closed
                    match: { http: { path: /closed } }
                    limit: 100
                    window: 1m
                    strategy: failing-for-tests
                    on-error: reject
                """);
        long internalBefore = LimiterBridge.internalErrors();
        for (int i = 0; i < 3; i++) {
            assertThat(call(get("/open"))).as("on-error: allow lets the request through").isFalse();
        }
        FakeHttp closed = get("/closed");
        assertThat(call(closed)).as("on-error: reject").isTrue();
        assertThat(closed.status).isEqualTo(429);
        assertThat(closed.responseHeaders).containsKey("Retry-After");
        assertThat(holder.current().rule("fault-open").stats().errors().sum()).isEqualTo(3);
        assertThat(holder.current().rule("fault-closed").stats().errors().sum()).isEqualTo(1);
        assertThat(LimiterBridge.internalErrors()).as("handled, not escaped to the bridge").isEqualTo(internalBefore);
    }

    @Test
    void ipKeysIgnoreForwardedForFromUntrustedPeersAndHonourItFromTrustedOnes() throws Exception {
        rules("""
                client-ip:
                  trusted-proxies: [10.0.0.0/8]
                rules:
                  - id: per-ip
                    match: { http: { path: /ip } }
                    key: ip
                    limit: 1
                    window: 1m
                """);
        FakeHttp viaProxy = get("/ip");
        viaProxy.requestHeaders.put("X-Forwarded-For", "203.0.113.7, 10.1.1.1");
        assertThat(call(viaProxy)).isFalse();
        FakeHttp sameClient = get("/ip");
        sameClient.requestHeaders.put("X-Forwarded-For", "203.0.113.7");
        assertThat(call(sameClient)).as("same forwarded client").isTrue();
        FakeHttp otherClient = get("/ip");
        otherClient.requestHeaders.put("X-Forwarded-For", "203.0.113.8");
        assertThat(call(otherClient)).isFalse();

        FakeHttp direct = get("/ip");
        direct.remoteAddr = "198.51.100.1";
        direct.requestHeaders.put("X-Forwarded-For", "203.0.113.9");
        assertThat(call(direct)).isFalse();
        FakeHttp directSpoofing = get("/ip");
        directSpoofing.remoteAddr = "198.51.100.1";
        directSpoofing.requestHeaders.put("X-Forwarded-For", "203.0.113.10");
        assertThat(call(directSpoofing)).as("an untrusted peer cannot pick its key").isTrue();
    }

    /** One request to /ip from the peer address {@code peer}; true if it was rejected. */
    private static boolean callFrom(String peer) {
        FakeHttp http = get("/ip");
        http.remoteAddr = peer;
        return call(http);
    }

    @Test
    void ipv6ClientsShareOneBudgetPerSlash64WhateverAddressTheyUse() throws Exception {
        rules("""
                client-ip:
                  trusted-proxies: [10.0.0.0/8]
                rules:
                  - id: per-ip
                    match: { http: { path: /ip } }
                    key: ip
                    limit: 1
                    window: 1m
                """);
        assertThat(callFrom("2001:db8:1:2::1")).isFalse();
        assertThat(callFrom("2001:DB8:1:2:abcd:0:0:FFFF")).as("another address of the same /64").isTrue();
        FakeHttp sameNetworkViaProxy = get("/ip");
        sameNetworkViaProxy.requestHeaders.put("X-Forwarded-For", "[2001:0db8:0001:0002::7]:4711");
        assertThat(call(sameNetworkViaProxy)).as("the same /64 through a trusted proxy").isTrue();
        assertThat(callFrom("2001:db8:1:3::1")).as("a different /64").isFalse();
    }

    @Test
    void ipv6PrefixSetsHowMuchOfAnIpv6AddressIsTheClient() throws Exception {
        rules("""
                client-ip:
                  ipv6-prefix: 128
                rules:
                  - id: per-ip
                    match: { http: { path: /ip } }
                    key: ip
                    limit: 1
                    window: 1m
                """);
        assertThat(callFrom("2001:db8:1:2::1")).isFalse();
        assertThat(callFrom("2001:db8:1:2:0:0:0:1")).as("the same address, spelled out").isTrue();
        assertThat(callFrom("2001:db8:1:2::2")).as("another address of the /64 is another client at /128").isFalse();
    }

    @Test
    void aDryRunRuleBesideAnEnforcingRuleCountsButOnlyTheEnforcingRuleRejects() throws Exception {
        rules("""
                rules:
                  - id: shadow
                    match: { http: { path: /multi/** } }
                    limit: 1
                    window: 1m
                    mode: dry-run
                  - id: enforce
                    match: { http: { path: /multi/** } }
                    limit: 3
                    window: 1m
                """);
        for (int i = 0; i < 3; i++) {
            FakeHttp allowed = get("/multi/x");
            assertThat(call(allowed)).as("request %d: shadow is over its limit from request 2", i + 1).isFalse();
            // headers describe enforcing rules only: the dry-run rule never limits the client
            assertThat(allowed.responseHeaders).containsEntry("RateLimit-Policy", "\"enforce\";q=3;w=60");
        }
        FakeHttp fourth = get("/multi/x");
        assertThat(call(fourth)).isTrue();
        assertThat(fourth.status).isEqualTo(429);
        assertThat(fourth.body()).contains("\"rule\":\"enforce\"");
        assertStats("shadow", 1, 0, 3);
        assertStats("enforce", 3, 1, 0);
    }

    @Test
    void twoEnforcingRulesRejectWhenEitherRejectsAndCountInFileOrder() throws Exception {
        rules("""
                rules:
                  - id: wide
                    match: { http: { path: /multi/** } }
                    limit: 3
                    window: 1m
                  - id: narrow
                    match: { http: { path: /multi/narrow } }
                    limit: 2
                    window: 1m
                """);
        FakeHttp first = get("/multi/narrow");
        assertThat(call(first)).isFalse();
        // the headers of the rule with the least budget left
        assertThat(first.responseHeaders).containsEntry("RateLimit-Policy", "\"narrow\";q=2;w=60");
        assertThat(first.responseHeaders.get("RateLimit")).startsWith("\"narrow\";r=1;");
        assertThat(call(get("/multi/narrow"))).isFalse();

        FakeHttp third = get("/multi/narrow");
        assertThat(call(third)).as("narrow is spent, wide is not").isTrue();
        assertThat(third.body()).contains("\"rule\":\"narrow\"");
        // wide admitted the third request before narrow rejected it: a fixed-window admission is not given back
        assertStats("wide", 3, 0, 0);
        assertStats("narrow", 2, 1, 0);

        FakeHttp fourth = get("/multi/other");
        assertThat(call(fourth)).as("only wide matches, and it is spent").isTrue();
        assertThat(fourth.body()).contains("\"rule\":\"wide\"");
        FakeHttp fifth = get("/multi/narrow");
        assertThat(call(fifth)).isTrue();
        assertThat(fifth.body()).as("the first rejecting rule in file order answers").contains("\"rule\":\"wide\"");
        // rules after the rejecting one are not asked
        assertStats("wide", 3, 2, 0);
        assertStats("narrow", 2, 1, 0);
    }

    @Test
    void aRejectionByALaterRuleGivesBackTheConcurrencyPermitAnEarlierRuleTook() throws Exception {
        rules("""
                rules:
                  - id: busy
                    match: { http: { path: /multi/** } }
                    strategy: concurrency
                    limit: 1
                  - id: rate
                    match: { http: { path: /multi/** } }
                    limit: 1
                    window: 1m
                """);
        long[] out = new long[Outcome.SIZE];
        assertThat(call(get("/multi/x"))).isFalse();
        FakeHttp rejected = get("/multi/x");
        assertThat(LimiterBridge.servletEnter(rejected.request, rejected.response)).isTrue();
        try {
            assertThat(holder.current().rule("busy").limiter().remaining("", out))
                    .as("busy's permit is back while the rejected request is still in the servlet's frame")
                    .isEqualTo(1);
        } finally {
            LimiterBridge.servletExit();
        }
        assertThat(holder.current().rule("busy").limiter().remaining("", out)).isEqualTo(1);
        assertStats("busy", 2, 0, 0);
        assertStats("rate", 1, 1, 0);
    }

    @Test
    void principalKeysGiveEachUserABudgetAndAnonymousRequestsShareOne() throws Exception {
        rules("""
                rules:
                  - id: per-user
                    match: { http: { path: /me/** } }
                    key: principal
                    limit: 1
                    window: 1m
                """);
        assertThat(callAs("alice", "/me/orders")).isFalse();
        assertThat(callAs("alice", "/me/cart")).as("alice's budget is spent").isTrue();
        assertThat(callAs("bob", "/me/orders")).as("bob has his own").isFalse();
        // no authenticated user: not exempt (docs/rules.md, key), all anonymous requests share the empty key
        assertThat(call(get("/me/orders"))).isFalse();
        assertThat(call(get("/me/cart"))).as("a second anonymous request").isTrue();

        Rule rule = holder.current().rule("per-user");
        long[] out = new long[Outcome.SIZE];
        assertThat(rule.limiter().activeKeys()).isEqualTo(3);
        for (String key : new String[] {"alice", "bob", ""}) {
            assertThat(rule.limiter().remaining(key, out)).as("key '%s'", key).isZero();
        }
        assertStats("per-user", 3, 2, 0);
    }

    @Test
    void pathKeysGiveEachPathABudget() throws Exception {
        rules("""
                rules:
                  - id: per-path
                    match: { http: { path: /files/** } }
                    key: path
                    limit: 2
                    window: 1m
                """);
        assertThat(call(get("/files/a"))).isFalse();
        assertThat(call(get("/files/a"))).isFalse();
        assertThat(call(get("/files/a"))).isTrue();
        assertThat(call(get("/files/b"))).as("another path, another budget").isFalse();

        Rule rule = holder.current().rule("per-path");
        long[] out = new long[Outcome.SIZE];
        assertThat(rule.limiter().activeKeys()).isEqualTo(2);
        assertThat(rule.limiter().remaining("/files/a", out)).isZero();
        assertThat(rule.limiter().remaining("/files/b", out)).isEqualTo(1);
        assertStats("per-path", 3, 1, 0);
    }

    /** One request as the authenticated user {@code name}; true if rejected. */
    private static boolean callAs(String name, String path) {
        FakeHttp http = get(path);
        Principal user = () -> name;
        Object request = java.lang.reflect.Proxy.newProxyInstance(ServletLimiterTest.class.getClassLoader(),
                new Class<?>[] {jakarta.servlet.http.HttpServletRequest.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getUserPrincipal")) {
                        return user;
                    }
                    try {
                        return method.invoke(http.request, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try {
            return LimiterBridge.servletEnter(request, http.response);
        } finally {
            LimiterBridge.servletExit();
        }
    }

    private void assertStats(String rule, long allowed, long rejected, long wouldReject) {
        RuleStats stats = holder.current().rule(rule).stats();
        assertThat(stats.allowed().sum()).as("%s allowed", rule).isEqualTo(allowed);
        assertThat(stats.rejected().sum()).as("%s rejected", rule).isEqualTo(rejected);
        assertThat(stats.wouldReject().sum()).as("%s would reject", rule).isEqualTo(wouldReject);
    }
}
