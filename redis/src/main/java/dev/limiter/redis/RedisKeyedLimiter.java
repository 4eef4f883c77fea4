package dev.limiter.redis;

import dev.limiter.core.JointLimiter;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.AllOf;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One rule's limiter with its state in Redis, shared by every JVM using the same store and rule id.
 *
 * <p>Each check is one {@code EVALSHA} of the strategy's Lua script on one key: the script reads the server's
 * clock ({@code TIME}), decides and writes atomically, so there is no read-then-write race between JVMs and no
 * clock skew between them. Semantics are those of the local strategy of the same name (see the scripts).
 *
 * <p>Key layout: {@code <prefix>{<ruleId>:<key>}}. The braces are a Redis Cluster hash tag: everything a check
 * touches lives in one slot, so the script runs on one node. Keys expire by themselves once they hold nothing a
 * missing key would not (a full budget); concurrency keys live while some JVM renews its lease.
 *
 * <p>The request path allocates (the client encodes a command and decodes a reply: a few small objects per
 * check); the per-config arguments are encoded once per {@link #reconfigure}. When Redis is unavailable the
 * store's {@link OnFailure} decides, without a round trip while the circuit is open.
 *
 * <p>Concurrency: permits are held per JVM ({@link RedisStore#instanceId()}) under a lease the store renews for
 * keys with calls in flight; {@link #release} returns a permit to where it was taken (Redis, or the local
 * fallback if the check fell back). A release that cannot reach Redis is retried by the store's thread; if it
 * never can, the lease frees the permit.
 */
final class RedisKeyedLimiter implements JointLimiter {

    private static final byte[] TAKE = bytes(0);
    private static final byte[] PEEK = bytes(1);
    private static final byte[] RELEASE = bytes(2);
    private static final byte[] RENEW = bytes(3);
    private static final byte[] ONE = bytes(1);
    private static final byte[] ZERO = bytes(0);
    private static final byte[] KIND_FIXED = "f".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KIND_SLIDING = "s".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KIND_LOG = "l".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KIND_BUCKET = "g".getBytes(StandardCharsets.US_ASCII);

    /** Largest exact integer of a Lua number (a double): the GCRA script's values must stay below it. */
    static final long LUA_EXACT = 1L << 53;

    /** Most releases waiting for Redis to come back before the oldest are given up to the lease. */
    private static final int MAX_PENDING_RELEASES = 10_000;

    private final RedisStore store;
    private final String ruleId;
    private final RateLimitStrategy strategy;
    private final LuaScript script;
    private final boolean releases;
    private final String keyHead;
    private final String keyTail;
    private final OnFailure onFailure;
    private final LocalKeyedLimiter local;
    private final Map<String, AtomicInteger> held = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> pendingReleases = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    /** Reserved permits per hot key when batching (null when off or not batchable); see {@link LocalSlice}. */
    private final Map<String, LocalSlice> slices;
    private final int maxKeys;
    private volatile Args args;

    /** One config's limits with its script arguments, encoded once. */
    private record Args(LimitConfig config, List<byte[]> take, List<byte[]> peek, List<byte[]> release,
            List<byte[]> renew, List<byte[]> takeBatch, List<byte[]> joint) {
    }

    RedisKeyedLimiter(RedisStore store, String ruleId, RateLimitStrategy strategy, LimitConfig config,
            int maxKeys) {
        this.store = store;
        this.ruleId = ruleId;
        this.strategy = strategy;
        this.script = scriptFor(strategy);
        this.releases = strategy.releasesOnExit();
        // "rule/slot" (one of several limits of a rule): the slot goes after the hash tag, so every limit of a key
        // lives in one Redis Cluster slot and one script can decide them together
        int slash = ruleId.indexOf('/');
        String tagged = slash < 0 ? ruleId : ruleId.substring(0, slash);
        this.keyHead = store.settings().keyPrefix() + "{" + tagged + ":";
        this.keyTail = slash < 0 ? "}" : "}" + ruleId.substring(slash);
        this.onFailure = store.settings().onFailure();
        this.local = LocalKeyedLimiter.create(strategy, config, maxKeys); // validates maxKeys and config
        this.maxKeys = maxKeys;
        boolean batchable = script == LuaScript.FIXED_WINDOW || script == LuaScript.GCRA;
        this.slices = batchable && store.settings().batch() > 1 ? new ConcurrentHashMap<>() : null;
        this.args = encode(config);
    }

    @Override
    public boolean tryAcquire(String key, long[] out) {
        Args a = args;
        if (slices != null) {
            return tryAcquireBatched(key, out, a);
        }
        Object reply = store.eval(script, List.of(redisKey(key)), a.take);
        if (reply == null) {
            return fallbackAcquire(key, out, a.config);
        }
        boolean allowed = fill(reply, out, a.config.limit());
        if (allowed && releases) {
            held.compute(key, RedisKeyedLimiter::increment);
        }
        return allowed;
    }

    /**
     * A call's cost: {@code permits} at once or none, in one script run (the all-limits script with this limit
     * alone). Not batched.
     */
    @Override
    public boolean tryAcquire(String key, long permits, long[] out) {
        if (permits == 1) {
            return tryAcquire(key, out);
        }
        return AllOf.admitted(tryAcquireAll(new KeyedLimiter[] {this}, key, permits, out));
    }

    /**
     * Every limit of a rule for one key in one round trip ({@code all-of.lua}): the script decides each and
     * writes only if all admit, so nothing is refunded and no other JVM ever sees a permit that is given back.
     * Batching does not apply here. When Redis fails, the first limit's {@code on-failure} decides for all:
     * {@code local} runs the same decision on this JVM's fallback limiters.
     */
    @Override
    public int tryAcquireAll(KeyedLimiter[] limiters, String key, long permits, long[] out) {
        if (script == LuaScript.CONCURRENCY) {
            return NOT_JOINED;
        }
        List<byte[]> keys = new ArrayList<>(limiters.length);
        List<byte[]> argv = new ArrayList<>(3 + 3 * limiters.length);
        argv.add(script == LuaScript.GCRA ? KIND_BUCKET : script == LuaScript.SLIDING_WINDOW ? KIND_SLIDING
                : script == LuaScript.SLIDING_LOG ? KIND_LOG : KIND_FIXED);
        argv.add(bytes(permits));
        argv.add(TAKE);
        LimitConfig[] configs = new LimitConfig[limiters.length];
        for (int i = 0; i < limiters.length; i++) {
            if (!(limiters[i] instanceof RedisKeyedLimiter other) || other.store != store || other.script != script) {
                return NOT_JOINED;
            }
            Args a = other.args;
            configs[i] = a.config;
            keys.add(other.redisKey(key));
            argv.addAll(a.joint);
        }
        Object reply = store.eval(LuaScript.ALL_OF, keys, argv);
        if (reply == null) {
            return fallbackAll(limiters, key, permits, out);
        }
        List<?> r = (List<?>) reply;
        int binding = (int) ((Long) r.get(1) - 1);
        long limit = configs[binding].limit();
        if ((Long) r.get(0) == 1) {
            Outcome.allow(out, (Long) r.get(2), (Long) r.get(3), limit);
            return binding;
        }
        Outcome.reject(out, (Long) r.get(2), (Long) r.get(3), (Long) r.get(4), limit);
        return ~binding;
    }

    /** Redis failed: {@code on-failure} for every limit at once. */
    private int fallbackAll(KeyedLimiter[] limiters, String key, long permits, long[] out) {
        if (onFailure != OnFailure.LOCAL) {
            return fallbackAcquire(key, out, args.config) ? 0 : ~0;
        }
        store.stats().fallbacks.increment();
        KeyedLimiter[] locals = new KeyedLimiter[limiters.length];
        for (int i = 0; i < limiters.length; i++) {
            locals[i] = ((RedisKeyedLimiter) limiters[i]).local;
        }
        return AllOf.tryAcquire(locals, key, permits, out, Outcome.newArray(), new long[locals.length]);
    }

    /** Only the local fallback ever takes several limits one by one, so only it has anything to give back. */
    @Override
    public void refund(String key, long permits, long stamp) {
        local.refund(key, permits, stamp);
    }

    /**
     * Batching: a permit from this JVM's slice of the key, a rejection Redis reported that still holds, or one
     * round trip that reserves a new slice of up to {@code batch} permits.
     */
    private boolean tryAcquireBatched(String key, long[] out, Args a) {
        long limit = a.config.limit();
        long now = System.nanoTime();
        LocalSlice slice = slices.get(key);
        if (slice != null) {
            long left = slice.take(now);
            if (left >= 0) {
                return Outcome.allow(out, left, slice.resetEpochMillis(), limit);
            }
            long rejecting = slice.rejectingMillis(now);
            if (rejecting > 0) {
                return Outcome.reject(out, 0, slice.resetEpochMillis(), rejecting, limit);
            }
        }
        Object reply = store.eval(script, List.of(redisKey(key)), a.takeBatch);
        if (reply == null) {
            return fallbackAcquire(key, out, a.config);
        }
        boolean allowed = fill(reply, out, limit);
        if (slice == null && slices.size() >= maxKeys) {
            return allowed; // bounded: keys beyond maxKeys are simply not batched
        }
        long reset = (Long) ((List<?>) reply).get(2);
        long at = System.nanoTime();
        if (!allowed) {
            LocalSlice current = slices.get(key);
            // a slice another thread of this JVM just filled keeps its permits: they are ours to hand out
            if (current == null || current.isSpent(at) || current.rejectingMillis(at) > 0) {
                install(key, current, LocalSlice.rejected(at + out[Outcome.RETRY_AFTER_MILLIS] * 1_000_000L, reset));
            }
            return false;
        }
        long extra = (Long) ((List<?>) reply).get(4) - 1;
        if (extra > 0) {
            keep(key, extra, reply, reset, at, a.config);
            out[Outcome.REMAINING] += extra;
        }
        return true;
    }

    /**
     * Keeps {@code extra} reserved permits for this JVM: added to the live slice of the same window (another
     * thread's concurrent reservation), else in a fresh slice that replaces a spent, rejecting or older-window
     * one. Conditional replacement, so two racing reservations never overwrite each other's permits; permits of
     * a past fixed window are never carried into the next (that would admit them twice over in it).
     */
    private void keep(String key, long extra, Object reply, long reset, long at, LimitConfig config) {
        long serverNow = (Long) ((List<?>) reply).get(5);
        long lifeMillis = script == LuaScript.FIXED_WINDOW ? reset - serverNow : config.windowMillis();
        LocalSlice fresh = null;
        for (;;) {
            LocalSlice current = slices.get(key);
            boolean sameWindow = current != null
                    && (script != LuaScript.FIXED_WINDOW || current.resetEpochMillis() == reset);
            if (sameWindow && current.add(extra, at)) {
                return;
            }
            if (fresh == null) {
                fresh = LocalSlice.reserved(extra, at + lifeMillis * 1_000_000L, reset);
            }
            if (install(key, current, fresh)) {
                return;
            }
        }
    }

    /** Replaces {@code current} (null: no slice) by {@code next} unless another thread changed it meanwhile. */
    private boolean install(String key, LocalSlice current, LocalSlice next) {
        return current == null ? slices.putIfAbsent(key, next) == null : slices.replace(key, current, next);
    }

    @Override
    public void release(String key) {
        if (!releases) {
            return;
        }
        AtomicInteger count = held.get(key);
        if (count == null || !decrementIfPositive(count)) {
            local.release(key); // the permit was taken by the fallback
            return;
        }
        held.computeIfPresent(key, RedisKeyedLimiter::dropIfZero);
        if (store.eval(script, List.of(redisKey(key)), args.release) == null) {
            queueRelease(key);
        }
    }

    @Override
    public long remaining(String key, long[] out) {
        Args a = args;
        Object reply = store.eval(script, List.of(redisKey(key)), a.peek);
        if (reply == null) {
            return onFailure == OnFailure.LOCAL ? local.remaining(key, out) : fallbackPeek(out, a.config);
        }
        fill(reply, out, a.config.limit());
        return out[Outcome.REMAINING];
    }

    /** Keys of this rule in Redis (SCAN over every node: for JMX and tests, not for the request path). */
    @Override
    public int activeKeys() {
        try {
            return store.scan(pattern()).size();
        } catch (RuntimeException e) {
            return local.activeKeys();
        }
    }

    /** Deletes every key of this rule in Redis (for every JVM) and the local fallback's state. */
    @Override
    public void reset() {
        local.reset();
        if (slices != null) {
            slices.clear();
        }
        held.clear();
        for (String key : store.scan(pattern())) {
            store.admin(c -> c.del(key));
        }
    }

    @Override
    public void resetKey(String key) {
        local.resetKey(key);
        if (slices != null) {
            slices.remove(key);
        }
        held.remove(key);
        byte[] redisKey = redisKey(key);
        store.admin(c -> c.del(redisKey));
    }

    /**
     * Applies to the local fallback only ({@code on-failure: local}), the one place this limiter bounds keys in
     * this JVM: keys in Redis expire by themselves and are not bounded by {@code maxKeys}.
     */
    @Override
    public void onFull(OnFull onFull) {
        local.onFull(onFull);
    }

    /** New keys the local fallback refused while full of live state. */
    @Override
    public long keysRefused() {
        return local.keysRefused();
    }

    /** New keys the local fallback admitted without state while full of live state. */
    @Override
    public long keysAdmittedWithoutState() {
        return local.keysAdmittedWithoutState();
    }

    @Override
    public LimitConfig config() {
        return args.config;
    }

    @Override
    public RateLimitStrategy strategy() {
        return strategy;
    }

    /**
     * New limits apply from the next check in this JVM. Other JVMs apply theirs when they reload: until then
     * each check uses the limits of the JVM that makes it (the stored state is converted, as locally).
     */
    @Override
    public void reconfigure(LimitConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        Args encoded = encode(config);
        local.reconfigure(config);
        this.args = encoded;
        if (slices != null) {
            slices.clear(); // reserved under the old limits
        }
    }

    /** Store thread: renews the leases of keys with calls in flight and retries releases that failed. */
    void maintain() {
        if (slices != null) {
            long now = System.nanoTime();
            slices.values().removeIf(slice -> slice.isSpent(now)); // expired or used up: bounded memory
        }
        if (!releases) {
            return;
        }
        Args a = args;
        for (Map.Entry<String, AtomicInteger> e : held.entrySet()) {
            if (e.getValue().get() > 0) {
                store.eval(script, List.of(redisKey(e.getKey())), a.renew);
            }
        }
        int n = pendingCount.get();
        for (int i = 0; i < n; i++) {
            String key = pendingReleases.poll();
            if (key == null) {
                break;
            }
            pendingCount.decrementAndGet();
            if (store.eval(script, List.of(redisKey(key)), a.release) == null) {
                queueRelease(key);
                break; // still down: keep the rest for the next round
            }
        }
    }

    byte[] redisKey(String key) {
        return (keyHead + key + keyTail).getBytes(StandardCharsets.UTF_8);
    }

    private boolean fallbackAcquire(String key, long[] out, LimitConfig config) {
        store.stats().fallbacks.increment();
        switch (onFailure) {
            case LOCAL:
                return local.tryAcquire(key, out);
            case ALLOW:
                return Outcome.allow(out, config.limit(), config.clock().millis(), config.limit());
            default:
                long retry = store.settings().probeInterval().toMillis();
                return Outcome.reject(out, 0, config.clock().millis() + retry, retry, config.limit());
        }
    }

    private long fallbackPeek(long[] out, LimitConfig config) {
        if (onFailure == OnFailure.ALLOW) {
            Outcome.allow(out, config.limit(), config.clock().millis(), config.limit());
            return config.limit();
        }
        long retry = store.settings().probeInterval().toMillis();
        Outcome.reject(out, 0, config.clock().millis() + retry, retry, config.limit());
        return 0;
    }

    private void queueRelease(String key) {
        if (pendingCount.incrementAndGet() > MAX_PENDING_RELEASES) {
            pendingCount.decrementAndGet();
            store.stats().lostReleases.increment(); // the lease frees it on Redis
            return;
        }
        pendingReleases.add(key);
    }

    private static boolean fill(Object reply, long[] out, long limit) {
        List<?> r = (List<?>) reply;
        long allowed = (Long) r.get(0);
        long remaining = (Long) r.get(1);
        long reset = (Long) r.get(2);
        long retry = (Long) r.get(3);
        if (allowed == 1) {
            return Outcome.allow(out, remaining, reset, limit);
        }
        return Outcome.reject(out, remaining, reset, retry, limit);
    }

    private Args encode(LimitConfig config) {
        strategy.validate(config);
        if (script == LuaScript.GCRA && config.capacityUnits() + config.unitsPerPermit() >= LUA_EXACT) {
            throw new IllegalArgumentException(strategy.name() + " on Redis needs capacity * (window / gcd(limit,"
                    + " window)) below 2^53; " + config + " is too fine-grained: use a shorter window or a"
                    + " smaller capacity");
        }
        byte[] limit = bytes(config.limit());
        byte[] batch = bytes(store.settings().batch());
        byte[] window = bytes(config.windowMillis());
        if (script == LuaScript.GCRA) {
            byte[] perMilli = bytes(config.unitsPerMilli());
            byte[] cost = bytes(config.unitsPerPermit());
            byte[] tolerance = bytes(config.capacityUnits());
            return new Args(config, List.of(TAKE, perMilli, cost, tolerance, ONE),
                    List.of(PEEK, perMilli, cost, tolerance, ONE), List.of(), List.of(),
                    List.of(TAKE, perMilli, cost, tolerance, batch), List.of(perMilli, cost, tolerance));
        }
        if (script == LuaScript.CONCURRENCY) {
            byte[] id = store.instanceId().getBytes(StandardCharsets.UTF_8);
            byte[] lease = bytes(store.settings().concurrencyLease().toMillis());
            return new Args(config, List.of(TAKE, limit, id, lease, window), List.of(PEEK, limit, id, lease, window),
                    List.of(RELEASE, limit, id, lease, window), List.of(RENEW, limit, id, lease, window), List.of(),
                    List.of());
        }
        return new Args(config, List.of(TAKE, limit, window, ONE), List.of(PEEK, limit, window, ONE), List.of(),
                List.of(), List.of(TAKE, limit, window, batch), List.of(limit, window, ZERO));
    }

    private static LuaScript scriptFor(RateLimitStrategy strategy) {
        LuaScript script = script(strategy.name());
        if (script == null) {
            throw new IllegalArgumentException("strategy '" + strategy.name()
                    + "' has no Redis script (custom strategies run with store: local only)");
        }
        return script;
    }

    /** The script that runs the strategy called {@code name}, or null if the store has none. */
    static LuaScript script(String name) {
        switch (name) {
            case "fixed-window":
                return LuaScript.FIXED_WINDOW;
            case "sliding-window":
                return LuaScript.SLIDING_WINDOW;
            case "sliding-log":
                return LuaScript.SLIDING_LOG;
            case "token-bucket":
            case "leaky-bucket":
                return LuaScript.GCRA;
            case "concurrency":
                return LuaScript.CONCURRENCY;
            default:
                return null;
        }
    }

    /** SCAN pattern of this limit's keys, with the rule id's glob characters escaped. */
    private String pattern() {
        StringBuilder p = new StringBuilder();
        escape(keyHead, p);
        p.append('*');
        escape(keyTail, p);
        return p.toString();
    }

    private static void escape(String text, StringBuilder p) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '*' || ch == '?' || ch == '[' || ch == ']' || ch == '\\') {
                p.append('\\');
            }
            p.append(ch);
        }
    }

    private static AtomicInteger increment(String key, AtomicInteger count) {
        if (count == null) {
            return new AtomicInteger(1);
        }
        count.incrementAndGet();
        return count;
    }

    private static AtomicInteger dropIfZero(String key, AtomicInteger count) {
        return count.get() <= 0 ? null : count;
    }

    private static boolean decrementIfPositive(AtomicInteger count) {
        for (;;) {
            int n = count.get();
            if (n <= 0) {
                return false;
            }
            if (count.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    private static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "RedisKeyedLimiter[" + ruleId + ", " + strategy.name() + ", " + args.config + "]";
    }
}
