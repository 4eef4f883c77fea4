package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.decision.RejectedKeyFeed;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.key.PrintableKey;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * Key values a client chooses to hurt the limiter, through the servlet decision with fake requests: a 64 KB
 * header, control characters and bytes that are not UTF-8, parameters the container refuses to parse, 10,000
 * parameters and path segments, and a client rotating through the addresses of its IPv6 /64 behind a trusted
 * proxy. Each gets a stated outcome (docs/rules.md, "Hostile keys"): a bounded key, no key text in the response
 * headers, a printable key in the rejected-key feed, a limit that still applies.
 */
class HostileKeysTest {

    @TempDir
    Path dir;

    private BridgeRules bridge;
    private RuleSetHolder holder;

    @AfterEach
    void tearDown() {
        if (bridge != null) {
            bridge.close();
        }
    }

    private void rules(String rulesYaml) throws Exception {
        bridge = BridgeRules.install(dir, rulesYaml);
        holder = bridge.holder;
    }

    private static boolean call(FakeHttp http) {
        return BridgeRules.call(http);
    }

    private static FakeHttp withApiKey(String key) {
        FakeHttp http = new FakeHttp("jakarta.servlet", "/api/x");
        http.requestHeaders.put("X-Api-Key", key);
        return http;
    }

    private Rule rule(String id) {
        return holder.current().rule(id);
    }

    private static final String BY_API_KEY = """
            rules:
              - id: by-key
                match: { http: { path: /api/** } }
                key: header:X-Api-Key
                limit: 1
                window: 1h
                max-keys: 1000
            """;

    @Test
    void aLongKeyIsKeptAsAFixedSizeDigestAndStillLimitsItsClient() throws Exception {
        rules(BY_API_KEY);
        String key = "K".repeat(64 * 1024);
        String sameButLast = key.substring(0, key.length() - 1) + "L";
        assertThat(call(withApiKey(key))).isFalse();
        assertThat(call(withApiKey(new String(key.toCharArray())))).as("the same 64 KB key again").isTrue();
        assertThat(call(withApiKey(sameButLast))).as("a key differing in its last character only").isFalse();

        long[] out = new long[Outcome.SIZE];
        String kept = KeyBound.bound(key);
        assertThat(kept).hasSize(KeyBound.DIGEST_FORM_LENGTH).startsWith("K".repeat(KeyBound.KEPT_PREFIX));
        assertThat(rule("by-key").limiter().remaining(kept, out)).as("state is held under the digest form").isZero();
        assertThat(rule("by-key").limiter().activeKeys()).isEqualTo(2);
    }

    @Test
    void a1000LongKeysTakeKilobytesNotTheirOwnSize() throws Exception {
        rules(BY_API_KEY);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        String base = "k".repeat(64 * 1024 - 8);
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        long started = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            assertThat(call(withApiKey(base + String.format("%08d", i)))).isFalse();
        }
        long perRequestMicros = (System.nanoTime() - started) / 1000 / 1000;
        System.gc();
        long retained = memory.getHeapMemoryUsage().getUsed() - before;
        assertThat(rule("by-key").limiter().activeKeys()).isEqualTo(1000);
        // kept whole, 1,000 keys of 64 KB would hold 64 MB; as digests they hold ~250 KB
        assertThat(retained).as("heap held after 1,000 keys of 64 KB (%d µs per request)", perRequestMicros)
                .isLessThan(16L << 20);
    }

    @Test
    void controlCharactersAndNonUtf8BytesReachNeitherTheHeadersNorTheFeedAsTheyAre() throws Exception {
        rules(BY_API_KEY);
        List<String> fed = new CopyOnWriteArrayList<>();
        RejectedKeyFeed.subscribe(rule("by-key").stats(), fed::add);
        try {
            // CR LF to forge a header or a log line, NUL, an ANSI escape, and the bytes C3 28 FF 85 of a request that
            // is not UTF-8, as a container decoding headers as ISO-8859-1 hands them over
            String key = "evil\r\nX-Injected: 1\u0000\u001b[31m\u00c3(\u00ff\u0085";
            FakeHttp first = withApiKey(key);
            assertThat(call(first)).isFalse();
            FakeHttp second = withApiKey(key);
            assertThat(call(second)).isTrue();
            for (FakeHttp http : List.of(first, second)) {
                assertThat(http.responseHeaders.keySet()).doesNotContain("X-Injected");
                assertThat(String.join("", http.responseHeaders.values())).doesNotContain("evil")
                        .doesNotContain("\r").doesNotContain("\n").doesNotContain("\u0000");
            }
            assertThat(second.body()).doesNotContain("evil");
            assertThat(fed).containsExactly(PrintableKey.of(key));
            assertThat(fed.get(0)).isEqualTo("evil\\u000d\\u000aX-Injected: 1\\u0000\\u001b[31m\u00c3(\u00ff\\u0085")
                    .doesNotContainPattern("[\\x00-\\x1f\\x7f-\\x9f]");
        } finally {
            RejectedKeyFeed.unsubscribe(rule("by-key").stats());
        }
    }

    @Test
    void parametersTheContainerRefusesToParseCountAsAMissingParameterNotAsAFailure() throws Exception {
        rules("""
                rules:
                  - id: by-param
                    match: { http: { path: /api/** } }
                    key: param:k
                    limit: 1
                    window: 1h
                """);
        FakeHttp first = new FakeHttp("jakarta.servlet", "/api/x");
        first.parameterFailure = new IllegalStateException("More than the maximum number of request parameters");
        assertThat(call(first)).isFalse();
        FakeHttp second = new FakeHttp("jakarta.servlet", "/api/x");
        second.parameterFailure = new IllegalStateException("More than the maximum number of request parameters");
        assertThat(call(second)).as("1,001 parameters do not get past the limit (on-error: allow)").isTrue();
        FakeHttp withoutParameter = new FakeHttp("jakarta.servlet", "/api/x");
        assertThat(call(withoutParameter)).as("the same budget as a request without k").isTrue();
        assertThat(rule("by-param").stats().errors().sum()).isZero();
    }

    @Test
    void tenThousandParametersAndPathSegmentsCostBoundedTime() throws Exception {
        rules("""
                rules:
                  - id: by-param
                    match: { http: { path: /api/** } }
                    key: param:k
                    limit: 1000000
                    window: 1h
                  - id: by-path
                    match: { http: { paths: [/files/**, /**/deep/*/x, /files/*/*/*/y] } }
                    key: path
                    limit: 1000000
                    window: 1h
                """);
        java.util.Map<String, String> parameters = new java.util.HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            parameters.put("p" + i, "v" + i);
        }
        parameters.put("k", "the-key");
        String path = "/files" + "/a".repeat(10_000);
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            FakeHttp params = new FakeHttp("jakarta.servlet", "/api/x");
            params.parameters.putAll(parameters);
            assertThat(call(params)).isFalse();
            FakeHttp deep = new FakeHttp("jakarta.servlet", path + (i % 2 == 0 ? "" : "/deep/z/x"));
            assertThat(call(deep)).isFalse();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertThat(millis).as("200 requests, half with a 10,000-segment path").isLessThan(5_000);
        long[] out = new long[Outcome.SIZE];
        assertThat(rule("by-path").limiter().remaining(KeyBound.bound(path), out)).isEqualTo(1_000_000 - 50);
        assertThat(rule("by-param").limiter().remaining("the-key", out)).isEqualTo(1_000_000 - 100);
    }

    @Test
    void aClientRotatingThroughItsIpv6NetworkBehindATrustedProxyIsOneClient() throws Exception {
        rules("""
                client-ip:
                  trusted-proxies: [10.0.0.0/8]
                rules:
                  - id: per-ip
                    match: { http: { path: /ip } }
                    key: ip
                    limit: 5
                    window: 1h
                """);
        java.util.Random random = new java.util.Random(42);
        int rejected = 0;
        for (int i = 0; i < 1000; i++) {
            FakeHttp http = new FakeHttp("jakarta.servlet", "/ip");
            http.remoteAddr = "10.0.0.1";
            String address = String.format("2001:db8:aa:bb:%x:%x:%x:%x", random.nextInt(0x10000),
                    random.nextInt(0x10000), random.nextInt(0x10000), random.nextInt(0x10000));
            // a fresh address from the /64 each time, a made-up hop on the left, a trusted hop on the right
            http.requestHeaders.put("X-Forwarded-For", "198.51.100." + (i % 250) + ", "
                    + (i % 3 == 0 ? "[" + address + "]:" + (1024 + i) : address) + ", 10.9.9.9");
            rejected += call(http) ? 1 : 0;
        }
        assertThat(rejected).isEqualTo(995);
        assertThat(rule("per-ip").limiter().activeKeys()).isEqualTo(1);
        long[] out = new long[Outcome.SIZE];
        assertThat(rule("per-ip").limiter().remaining("2001:db8:aa:bb::/64", out)).isZero();

        FakeHttp neighbour = new FakeHttp("jakarta.servlet", "/ip");
        neighbour.remoteAddr = "10.0.0.1";
        neighbour.requestHeaders.put("X-Forwarded-For", "2001:db8:aa:bc::1");
        assertThat(call(neighbour)).as("the next /64 is another client").isFalse();
    }
}
