package dev.limiter.it.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ServerLogs;
import java.security.SecureRandom;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Floods of new keys against a forked Jetty 12 with the agent, over real HTTP, read over real JMX
 * (docs/rules.md, "Key bound"): random API keys, many times {@code max-keys}, neither reset a throttled key nor
 * change the budget of a legitimate one, every key beyond the table is refused and counted, and the server's heap
 * grows by no more than the table's bound; rotating IPv6 addresses of one /64, forwarded by a trusted proxy, are
 * one client and throttled as one.
 *
 * <p>{@code limiter.it.flood.requests} sets the flood's size: {@value #DEFAULT_REQUESTS} in the build,
 * 200,000 in {@code scripts/key-flood}, which keeps the figures this test prints in {@code benchmarks/results}.
 * The assertions hold for any size and any {@code max-keys}: keys beyond the table are refused, keys within it
 * are admitted once each.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyFloodHeapTest {

    static final int DEFAULT_REQUESTS = 50_000;
    private static final int REQUESTS = Integer.getInteger("limiter.it.flood.requests", DEFAULT_REQUESTS);
    private static final int CONNECTIONS = 4;
    /**
     * The rules' {@code max-keys} ({@code limiter.it.flood.max-keys}, default 1,000). {@code scripts/key-flood}'s
     * control run sets it above the flood's size, so that every key is kept: the heap check must then see the
     * whole table, which shows it can see a table at all.
     */
    private static final int MAX_KEYS = Integer.getInteger("limiter.it.flood.max-keys", 1_000);
    /** The flood's API keys: 16 hex digits. */
    private static final int KEY_LENGTH = 16;

    /**
     * What one key can hold in the heap (docs/rules.md, "Key bound"): 72 B of state, map node and table slot
     * (docs/overhead.md), and the key string, 24 B plus its Latin-1 bytes in an array of 16 B header rounded up
     * to 8 B.
     */
    static long bytesPerKey(int keyLength) {
        return 72 + 24 + ((16 + keyLength + 7) / 8) * 8;
    }

    /**
     * What the server may retain beyond the table, whatever the flood's size: Jetty's buffer pool for the
     * flood's connections, the JMX connection, the rule's top-10 rejected keys, code paths run for the first time.
     * Well below what an unbounded table would hold after the build's flood (50,000 x 128 B = 6.4 MB).
     */
    private static final long SERVER_ALLOWANCE = 2L << 20;

    /**
     * Token buckets, not the default fixed windows: a fixed window of an hour ends on the hour, and a flood that
     * runs across it would see each budget twice (3 per hour refills 0.01 of a permit during a flood).
     */
    private static final String RULES = """
            version: 1
            reload: { watch: false }
            client-ip:
              trusted-proxies: [127.0.0.1]
              ipv6-prefix: 64
            rules:
              - id: flood-api-key
                match: { http: { path: /api/items/flood-api-key } }
                key: header:X-Api-Key
                limit: 3
                window: 1h
                strategy: token-bucket
                max-keys: %d
              - id: flood-ipv6
                match: { http: { path: /api/items/flood-ipv6 } }
                key: ip
                limit: 3
                window: 1h
                strategy: token-bucket
                max-keys: %d
            """.formatted(MAX_KEYS, MAX_KEYS);

    private static final String API_PATH = "/api/items/flood-api-key";
    private static final String IP_PATH = "/api/items/flood-ipv6";
    private static final ObjectName API = AttachedServer.rule("flood-api-key");
    private static final ObjectName IP = AttachedServer.rule("flood-ipv6");
    private static final ObjectName MEMORY = AttachedServer.name("java.lang:type=Memory");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private final long seed = new SecureRandom().nextLong();
    private AttachedServer attached;

    @BeforeAll
    void startAndAttach() {
        attached = AttachedServer.start(servers, "KeyFloodHeapTest", RULES, API, IP);
    }

    @AfterAll
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    /**
     * SplitMix64's finaliser: a bijection of the longs, so request i's key is random-looking and no two requests
     * share one (the test counts new keys exactly).
     */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private String apiKey(int i) {
        String hex = Long.toHexString(mix(seed + i));
        return "0".repeat(KEY_LENGTH - hex.length()) + hex;
    }

    private int apiStatus(String key) {
        return attached.http.status(API_PATH, "X-Api-Key", key);
    }

    private long remaining(ObjectName rule, String key) throws Exception {
        return (Long) attached.mbeans.invoke(rule, "remaining", new Object[] {key},
                new String[] {String.class.getName()});
    }

    private long heapUsedAfterGc() throws Exception {
        attached.mbeans.invoke(MEMORY, "gc", null, null);
        attached.mbeans.invoke(MEMORY, "gc", null, null); // a second pass settles what the first one freed late
        CompositeData heap = (CompositeData) attached.mbeans.getAttribute(MEMORY, "HeapMemoryUsage");
        return (Long) heap.get("used");
    }

    @Test
    void randomApiKeysNeitherResetAThrottledKeyNorTouchOtherBudgetsNorGrowTheHeap() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(apiStatus("victim")).isEqualTo(200);
        }
        assertThat(apiStatus("victim")).as("throttled").isEqualTo(429);
        assertThat(apiStatus("alice")).isEqualTo(200);
        assertThat(apiStatus("bob")).isEqualTo(200);
        assertThat(apiStatus("bob")).isEqualTo(200);
        assertThat(remaining(API, "victim")).isZero();
        assertThat(remaining(API, "alice")).isEqualTo(2);
        assertThat(remaining(API, "bob")).isEqualTo(1);
        int free = Math.min(MAX_KEYS - 3, REQUESTS);
        long before = heapUsedAfterGc();

        PipelinedFlood.Result flood = new PipelinedFlood(attached.server.port(), CONNECTIONS)
                .run(API_PATH, REQUESTS, i -> "X-Api-Key: " + apiKey(i) + "\r\n");

        long after = heapUsedAfterGc();
        long keys = Math.min(MAX_KEYS, REQUESTS + 3L);
        long bound = keys * bytesPerKey(KEY_LENGTH) + SERVER_ALLOWANCE;
        System.out.printf("KEY-FLOOD api-key max-keys=%d seed=%d: %s; KeysRefused %s; heap used after GC %,d -> "
                + "%,d B (%+,d B; bound %,d B = %d keys x %d B + %,d B)%n", MAX_KEYS, seed, flood,
                attached.mbeans.getAttribute(API, "KeysRefused"), before, after, after - before, bound, keys,
                bytesPerKey(KEY_LENGTH), SERVER_ALLOWANCE);
        assertThat(flood.other()).as("only 200 and 429").isZero();
        assertThat(flood.ok()).as("the free slots, one new key each").isEqualTo(free);
        assertThat(flood.tooMany()).isEqualTo(REQUESTS - free);
        assertThat(attached.mbeans.getAttribute(API, "KeysRefused")).as("every new key beyond the table")
                .isEqualTo((long) REQUESTS - free);
        assertThat(attached.mbeans.getAttribute(API, "KeysAdmittedWithoutState")).isEqualTo(0L);
        assertThat(attached.mbeans.getAttribute(API, "ActiveKeys")).isEqualTo((int) keys);
        assertThat(apiStatus("victim")).as("still throttled").isEqualTo(429);
        assertThat(remaining(API, "alice")).as("alice's budget untouched").isEqualTo(2);
        assertThat(remaining(API, "bob")).as("bob's budget untouched").isEqualTo(1);
        assertThat(apiStatus("bob")).isEqualTo(200);
        assertThat(apiStatus("bob")).as("bob had exactly one left").isEqualTo(429);
        assertThat(after - before).as("heap growth within the table's bound").isLessThanOrEqualTo(bound);
    }

    @Test
    void rotatingIpv6AddressesOfOneSlash64BehindATrustedProxyAreOneClient() throws Exception {
        PipelinedFlood.Result flood = new PipelinedFlood(attached.server.port(), CONNECTIONS)
                .run(IP_PATH, REQUESTS, i -> "X-Forwarded-For: " + rotatingAddress(i) + "\r\n");

        System.out.printf("KEY-FLOOD ipv6 seed=%d: %s; KeysRefused %s; ActiveKeys %s%n", seed, flood,
                attached.mbeans.getAttribute(IP, "KeysRefused"), attached.mbeans.getAttribute(IP, "ActiveKeys"));
        assertThat(flood.other()).isZero();
        assertThat(flood.ok()).as("one client: its limit, once").isEqualTo(3);
        assertThat(flood.tooMany()).isEqualTo(REQUESTS - 3);
        assertThat(attached.mbeans.getAttribute(IP, "ActiveKeys")).isEqualTo(1);
        assertThat(attached.mbeans.getAttribute(IP, "KeysRefused")).as("no new key at all").isEqualTo(0L);
        assertThat(remaining(IP, "2001:db8:1:2::/64")).isZero();
        assertThat(attached.http.status(IP_PATH, "X-Forwarded-For", "2001:db8:1:3::1"))
                .as("the neighbouring /64 is another client").isEqualTo(200);
    }

    /** Request i's address: 2001:db8:1:2::/64 with 64 random-looking, never repeated interface bits. */
    private String rotatingAddress(int i) {
        long iid = mix(seed + i);
        return String.format("2001:db8:1:2:%x:%x:%x:%x", iid >>> 48, (iid >>> 32) & 0xffff, (iid >>> 16) & 0xffff,
                iid & 0xffff);
    }
}
