package dev.limiter.core.store;

import dev.limiter.core.Bucket;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One rule's buckets in this JVM: key (client IP, user, header value...) to {@link Bucket}, bounded.
 *
 * <p>Request path: an existing key costs one {@link ConcurrentHashMap#get} (no lock, no allocation; the key's
 * hash is cached in the String) plus the strategy's CAS. Only a new key takes the slow path.
 *
 * <p>Why bounded, and how: keyed limiters die by key cardinality (one random key per request exhausts the heap),
 * so at most {@code maxKeys} keys live at once. A new key first reserves a slot in an atomic counter; when the
 * store is full it evicts before inserting, with a CLOCK-like sampled sweep: a hand walks the map (a weakly
 * consistent iterator, kept across calls so every key gets its turn) and drops every idle key it meets (idle =
 * the strategy says the bucket holds nothing a fresh key would not: an expired window, a full bucket, nothing in
 * flight), stopping after a sample of {@value #SAMPLE} entries that held one, or after a lap of the map (at most
 * {@value #MAX_WALK} entries). Dropping an idle key changes no decision, so idle keys always go first.
 *
 * <p>Only when the walk found no idle key does the {@link OnFull} choice decide, because then any eviction resets
 * a live budget, and a flood of new keys could reset a throttled key's limit: {@link OnFull#REJECT} refuses the
 * new key's request, {@link OnFull#ALLOW} admits it without storing anything for it, and {@link OnFull#EVICT}
 * drops the first few non-idle keys the walk met ({@link #forcedBatch}: up to {@value #MAX_FORCED_BATCH}, so a
 * flood of new keys does not walk on every insertion; once a lap found no idle key, the batches of the same
 * clock millisecond come from a sample of {@value #SAMPLE} entries, see {@link #nothingEvictableAt}). Keys with
 * calls in flight are never evicted ({@link RateLimitStrategy#retire}) and a permit taken without a bucket could
 * not be released exactly, so a bulkhead refuses the new key under every choice. Refusals and stateless
 * admissions are counted ({@link #keysRefused}, {@link #keysAdmittedWithoutState}).
 *
 * <p>The walk takes no lock, so it never blocks a request thread, platform or virtual (a {@code synchronized}
 * walk pins a waiting virtual thread to its carrier on Java 21 to 23, and every thread of a flood would queue on
 * it). One thread at a time owns the hand: it claims the walk with a CAS on {@link #walking} and gives it back
 * when done. A thread that finds the walk claimed does not wait for it: it looks at the table once more
 * ({@link #glance}): a slot the walker freed meanwhile, or an idle key among the first {@value #SAMPLE} entries of
 * its own short walk (dropped as the hand would drop it), or, under {@link OnFull#EVICT}, the first live key of
 * that sample; only if none of these gives it a slot does the {@link OnFull} choice answer its request.
 *
 * <p>Why that thread may take the {@link OnFull} answer: the walk was claimed because the table was full, and the
 * glance found no free slot and no idle key, so as far as it could see the thread is where the choice applies.
 * Every promise of the choice holds: a concurrency rule never admits without state (the choice refuses), no live
 * key is evicted except under {@link OnFull#EVICT} (which never refuses: a glance there always frees a slot or
 * finds one freed), every refusal or stateless admission is counted exactly once ({@link #full}, once per
 * request that got no slot), and only a whole lap sets {@link #nothingEvictableAt} (a glance is no lap, so it
 * never spares the next walker its walk). What it gives up: while one thread walks, another new key may be
 * refused (or admitted without state) although an idle key lies further on in the table, where a lock would have
 * made it wait for the walker and then walk a lap itself. That is the price of never waiting, and a small one:
 * the walker drops every idle key of its sample, so slots are usually free by the time others look; with a
 * fraction p of the table idle, a glance misses all of them with probability (1-p)^16; the idle key it missed
 * is still evicted by a later lap, before any live one; and a refusal is what {@code reject} gives any fresh key
 * at a full table (fail closed, retry after a window). The claim is held for one walk of at most
 * {@value #MAX_WALK} entries. Tested: the walker held inside its walk, another new key is answered at once.
 *
 * <p>Why not Caffeine: core is JDK-only, and its W-TinyLFU admission buys hit-rate, which a limiter does not
 * need: an evicted key costs a budget reset, not a cache miss to recompute, and idle keys (the common victims)
 * cost nothing at all. Measured against a Caffeine store (docs/strategies.md): an existing key 2-3x cheaper,
 * 72 instead of 113 bytes per key, a new key in a full store 64 instead of ~515 bytes allocated.
 *
 * <p>The counter is incremented before a put and decremented after a remove, so the map never holds more than
 * {@code maxKeys} entries, even with many threads inserting at once.
 *
 * <p>Releases go by key. That is exact because a bulkhead bucket leaves the map only after {@code retire}
 * (nothing in flight), by eviction and by {@link #resetKey} alike: every outstanding permit lives in the
 * bucket the key maps to.
 */
public final class LocalKeyedLimiter implements KeyedLimiter {

    /** Entries the eviction hand looks at per sweep. */
    static final int SAMPLE = 16;

    /**
     * Most entries one insertion may walk when the sample holds nothing evictable (a store full of bulkheads
     * with calls in flight): bounds the work a flood of new keys can cause per request.
     */
    static final int MAX_WALK = 1024;

    /**
     * Most non-idle keys one sweep evicts when its sample held no idle key. More than one, so that under a flood
     * of new keys most insertions find a free slot without walking (at 2 threads, one victim per sweep made
     * every insertion queue on the sweep, then under a lock: 16 us per new key against 4 us for Caffeine); no
     * more evictions happen overall, since every new key needs a slot anyway, they only happen a few insertions
     * early. Scaled down for small stores ({@link #forcedBatch}) so a 3-key store still keeps 3.
     */
    static final int MAX_FORCED_BATCH = SAMPLE / 2;

    /**
     * Most times a new key finding nothing to evict waits for a slot that is counted but not yet in the map (an
     * insertion between its reservation and its put) before it is refused: {@value #SLOT_SPINS} spins, then
     * yields (the thread holding the slot may be waiting for this core); normally it resolves within a few
     * instructions. Small, because running out costs only a refusal (fail closed) while a long wait would burn a
     * core for every new key while the thread holding the slot is descheduled.
     */
    static final int MAX_SLOT_WAITS = 1_000;

    /** Waits for a slot in flight that spin before they yield. */
    static final int SLOT_SPINS = 100;

    private final RateLimitStrategy strategy;
    private final int maxKeys;
    private final boolean releases;
    private final ConcurrentHashMap<String, Bucket> buckets;
    private final AtomicInteger size = new AtomicInteger();
    /**
     * Claimed (CAS false to true) by the one thread that walks the hand; the claim orders one walker's writes to
     * the hand, the candidate arrays and {@link #emptyLaps} before the next walker's reads.
     */
    private final AtomicBoolean walking = new AtomicBoolean();
    private final int forcedBatch;
    /** Non-idle candidates of the current sweep (owned by the walker; cleared after each sweep). */
    private final String[] victimKeys;
    private final Bucket[] victims;
    private final LongAdder refused = new LongAdder();
    private final LongAdder admittedWithoutState = new LongAdder();
    /** New keys that stopped waiting for a slot in flight ({@link #MAX_SLOT_WAITS}): their thread was descheduled. */
    private final LongAdder slotWaitsRunOut = new LongAdder();
    /** The eviction hand (owned by the walker). */
    private Iterator<Map.Entry<String, Bucket>> hand;
    /**
     * The clock millisecond in which a lap found no idle key (and, unless forced, nothing else it may evict), or
     * {@link Long#MIN_VALUE}. Within that millisecond a new key is refused (or admitted without state) without
     * walking again, and under {@link OnFull#EVICT} the forced batch comes from one sample of {@value #SAMPLE}
     * entries instead of another lap, so a flood of new keys into a table full of live state costs one lap per
     * millisecond, not one per request or per batch; keys turn idle with time, so the next millisecond walks
     * again (a release, a reconfigure or a new choice forget it at once).
     */
    private volatile long nothingEvictableAt = Long.MIN_VALUE;
    /** Laps that found nothing to evict (tests; written by the walker only). */
    private volatile long emptyLaps;
    private volatile LimitConfig config;
    private volatile OnFull onFull;

    private LocalKeyedLimiter(RateLimitStrategy strategy, LimitConfig config, int maxKeys, OnFull onFull) {
        this.strategy = strategy;
        this.config = config;
        this.onFull = onFull;
        this.maxKeys = maxKeys;
        this.releases = strategy.releasesOnExit();
        this.buckets = new ConcurrentHashMap<>(Math.min(maxKeys, 1024));
        this.forcedBatch = forcedBatch(maxKeys);
        this.victimKeys = new String[forcedBatch];
        this.victims = new Bucket[forcedBatch];
    }

    /** One victim per 128 slots, between 1 and {@link #MAX_FORCED_BATCH}: the store stays within 1 % of full. */
    static int forcedBatch(int maxKeys) {
        return Math.max(1, Math.min(MAX_FORCED_BATCH, maxKeys / 128));
    }

    /**
     * A limiter for one rule that evicts live keys when it is full of them ({@link OnFull#EVICT}).
     *
     * @param maxKeys the most keys with live state; new keys beyond it evict others
     * @throws IllegalArgumentException if {@code maxKeys < 1} or the strategy rejects the config
     */
    public static LocalKeyedLimiter create(RateLimitStrategy strategy, LimitConfig config, int maxKeys) {
        return create(strategy, config, maxKeys, OnFull.EVICT);
    }

    /**
     * A limiter for one rule.
     *
     * @param maxKeys the most keys with state; idle keys are evicted to make room for new ones
     * @param onFull  what a new key gets when every slot holds live state
     * @throws IllegalArgumentException if {@code maxKeys < 1}, {@code onFull} is null or the strategy rejects the
     *                                  config
     */
    public static LocalKeyedLimiter create(RateLimitStrategy strategy, LimitConfig config, int maxKeys,
            OnFull onFull) {
        if (strategy == null || config == null || onFull == null) {
            throw new IllegalArgumentException("strategy, config and onFull are required");
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
        }
        strategy.validate(config);
        return new LocalKeyedLimiter(strategy, config, maxKeys, onFull);
    }

    @Override
    public boolean tryAcquire(String key, long[] out) {
        return tryAcquire(key, 1, out);
    }

    @Override
    public boolean tryAcquire(String key, long permits, long[] out) {
        LimitConfig cfg = config;
        Bucket bucket = buckets.get(key);
        for (;;) {
            boolean inserted = false;
            if (bucket == null) {
                bucket = insert(key, cfg);
                if (bucket == null) {
                    return full(cfg, out);
                }
                inserted = true;
            }
            if (strategy.check(bucket, cfg, permits, out)) {
                if (inserted && !releases && buckets.get(key) != bucket) {
                    // a new bucket is idle until its first check, so a walk may have evicted it just before:
                    // what this check counted went with it, and its slot to another key; count it again on the
                    // key's state as it is now (the built-in strategies mark a dropped bucket retired, handled
                    // below, so this catches a custom strategy that keeps the default retire)
                    bucket = buckets.get(key);
                    continue;
                }
                return true;
            }
            if (!strategy.isRetired(bucket)) {
                return false;
            }
            remove(key, bucket); // retired by the eviction hand: help it, then take a fresh bucket
            bucket = buckets.get(key);
        }
    }

    /** Like {@link #tryAcquire(String, long, long[])}, reserving: see {@link RateLimitStrategy#reserve}. */
    @Override
    public long reserve(String key, long permits, long maxWaitNanos, long[] out) {
        LimitConfig cfg = config;
        Bucket bucket = buckets.get(key);
        for (;;) {
            boolean inserted = false;
            if (bucket == null) {
                bucket = insert(key, cfg);
                if (bucket == null) {
                    return full(cfg, out) ? 0 : RateLimitStrategy.REJECTED;
                }
                inserted = true;
            }
            long wait = strategy.reserve(bucket, cfg, permits, maxWaitNanos, out);
            if (wait != RateLimitStrategy.REJECTED) {
                if (inserted && buckets.get(key) != bucket) { // evicted just before its first take: see tryAcquire
                    bucket = buckets.get(key);
                    continue;
                }
                return wait;
            }
            if (!strategy.isRetired(bucket)) {
                return RateLimitStrategy.REJECTED;
            }
            remove(key, bucket);
            bucket = buckets.get(key);
        }
    }

    /**
     * The decision for a new key when no slot could be freed without evicting live state: admitted without a
     * bucket under {@link OnFull#ALLOW} (remaining 0, as nothing is counted for it; nothing to release, since
     * only non-bulkhead strategies get here), otherwise refused with remaining 0 and a retry after one window,
     * the time in which a window-based key's state turns idle.
     */
    private boolean full(LimitConfig cfg, long[] out) {
        long now = cfg.clock().millis();
        if (onFull == OnFull.ALLOW && !releases) {
            admittedWithoutState.increment();
            return Outcome.allow(out, 0, now + cfg.windowMillis(), cfg.limit());
        }
        refused.increment();
        return Outcome.reject(out, 0, now + cfg.windowMillis(), cfg.windowMillis(), cfg.limit());
    }

    /**
     * {@inheritDoc} A key no longer held (its bucket was evicted as idle, so the permits had already come back)
     * has nothing to refund.
     */
    @Override
    public void refund(String key, long permits, long stamp) {
        Bucket bucket = buckets.get(key);
        if (bucket != null) {
            strategy.refund(bucket, config, permits, stamp);
        }
    }

    @Override
    public void release(String key) {
        if (!releases) {
            return;
        }
        Bucket bucket = buckets.get(key);
        if (bucket != null) {
            strategy.release(bucket, config);
            forgetEmptyLap(); // the key may be idle now, within the same millisecond
        }
    }

    @Override
    public void release(String key, long heldNanos, long nowNanos) {
        if (!releases) {
            return;
        }
        Bucket bucket = buckets.get(key);
        if (bucket != null) {
            strategy.release(bucket, config, heldNanos, nowNanos);
            forgetEmptyLap();
        }
    }

    @Override
    public Bucket stateOf(String key) {
        return buckets.get(key);
    }

    /** Something may have turned idle without the clock moving: the next new key walks again. */
    private void forgetEmptyLap() {
        if (nothingEvictableAt != Long.MIN_VALUE) {
            nothingEvictableAt = Long.MIN_VALUE;
        }
    }

    @Override
    public long remaining(String key, long[] out) {
        LimitConfig cfg = config;
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            return strategy.peekFresh(cfg, out); // nothing stored: reading must not fill the map
        }
        return strategy.peek(bucket, cfg, out);
    }

    @Override
    public int activeKeys() {
        return size.get();
    }

    @Override
    public long keysRefused() {
        return refused.sum();
    }

    /**
     * New keys answered without waiting longer for a slot that was counted but not yet in the map: the thread
     * holding it was descheduled for longer than {@link #MAX_SLOT_WAITS} waits. Each may have left a slot unused.
     */
    long slotWaitsRunOut() {
        return slotWaitsRunOut.sum();
    }

    @Override
    public long keysAdmittedWithoutState() {
        return admittedWithoutState.sum();
    }

    /** What a new key gets when every slot holds live state. */
    public OnFull onFull() {
        return onFull;
    }

    /** {@inheritDoc} Applies from the next new key that finds the store full. */
    @Override
    public void onFull(OnFull onFull) {
        if (onFull == null) {
            throw new IllegalArgumentException("onFull must not be null");
        }
        this.onFull = onFull;
        forgetEmptyLap();
    }

    /** The most keys this limiter keeps. */
    public int maxKeys() {
        return maxKeys;
    }

    /** {@inheritDoc} Also zeroes {@link #keysRefused} and {@link #keysAdmittedWithoutState}. */
    @Override
    public void reset() {
        for (String key : buckets.keySet()) {
            resetKey(key);
        }
        refused.reset();
        admittedWithoutState.reset();
    }

    /**
     * {@inheritDoc}
     *
     * <p>A bulkhead key with calls in flight is kept: its count is the truth about work that is still running,
     * and releases find their bucket by key, so dropping it would let a late release of an old call return a new
     * call's permit (one call more in flight than the limit). Such a key is dropped only once it is idle
     * (retired like an eviction victim); a rate-limit key is always dropped.
     */
    @Override
    public void resetKey(String key) {
        Bucket bucket = buckets.get(key);
        if (bucket != null && (!releases || strategy.retire(bucket, config))) {
            remove(key, bucket);
        }
    }

    @Override
    public LimitConfig config() {
        return config;
    }

    @Override
    public RateLimitStrategy strategy() {
        return strategy;
    }

    @Override
    public void reconfigure(LimitConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        strategy.validate(config);
        this.config = config;
        forgetEmptyLap();
    }

    /**
     * Drops every idle key now (a maintenance sweep, e.g. from JMX or a timer); returns how many were dropped.
     * Not needed for the bound, which insertion enforces.
     */
    public int evictIdle() {
        LimitConfig cfg = config;
        int dropped = 0;
        for (Map.Entry<String, Bucket> e : buckets.entrySet()) {
            if (strategy.retire(e.getValue(), cfg) && remove(e.getKey(), e.getValue())) {
                dropped++;
            }
        }
        return dropped;
    }

    /** Entries in the map (tests compare it with the counter). */
    int mapSize() {
        return buckets.size();
    }

    /** The bucket of {@code key}, for tests and diagnostics; null if the key has no state. */
    Bucket bucket(String key) {
        return buckets.get(key);
    }

    private boolean remove(String key, Bucket bucket) {
        if (buckets.remove(key, bucket)) {
            size.decrementAndGet();
            return true;
        }
        return false;
    }

    /**
     * Slow path: a key without state. Returns null if the store is full of keys that the {@link OnFull} choice
     * does not let it evict.
     */
    private Bucket insert(String key, LimitConfig cfg) {
        int waits = 0;
        for (;;) {
            Bucket existing = buckets.get(key);
            if (existing != null) {
                return existing;
            }
            int n = size.get();
            if (n < maxKeys) {
                if (!size.compareAndSet(n, n + 1)) {
                    continue;
                }
                Bucket fresh = strategy.newBucket(cfg);
                Bucket raced = buckets.putIfAbsent(key, fresh);
                if (raced == null) {
                    return fresh;
                }
                size.decrementAndGet();
                return raced;
            }
            if (!evict(cfg)) {
                if ((size.get() < maxKeys || buckets.size() < size.get()) && waits++ < MAX_SLOT_WAITS) {
                    // a slot counted but not in the map: an insertion between its reservation and its put (maybe
                    // of this very key), one giving back the slot of a race it lost, or a removal about to give
                    // its slot back. No refusal on its account: it resolves within a few instructions of its
                    // thread, so look again (the key may be there now, or the slot free). Bounded, so a thread
                    // descheduled in that window (or a slot leaked by a failing newBucket) costs a refusal, not a
                    // spin. Also when the slot came free since the walk decided (then the next turn takes it)
                    if (waits <= SLOT_SPINS) {
                        Thread.onSpinWait();
                    } else {
                        Thread.yield(); // its thread may be waiting for this core
                    }
                    continue;
                }
                if (waits > MAX_SLOT_WAITS) {
                    slotWaitsRunOut.increment();
                }
                return buckets.get(key); // put by another thread after the walk began, or still null: refused
            }
        }
    }

    /**
     * Frees at least one slot, or returns false if a lap of the map (at most {@link #MAX_WALK} entries) found no
     * idle key and the {@link OnFull} choice forbids evicting live ones (or they are bulkheads with calls in
     * flight). Never waits: a thread that finds the walk claimed glances at the table instead (class comment).
     */
    private boolean evict(LimitConfig cfg) {
        boolean force = onFull == OnFull.EVICT && !releases;
        long now = cfg.clock().millis();
        if (!force && now == nothingEvictableAt) {
            return size.get() < maxKeys; // walked in vain this millisecond already
        }
        // forced: walk (a sample only, if a lap found no idle key this millisecond)
        if (!walking.compareAndSet(false, true)) {
            return glance(cfg, force);
        }
        try {
            return walk(cfg, force, now);
        } finally {
            walking.set(false);
        }
    }

    /** The walk proper, by the thread that claimed it. */
    private boolean walk(LimitConfig cfg, boolean force, long now) {
        if (size.get() < maxKeys) {
            return true; // another thread freed a slot meanwhile
        }
        // forced after a lap found no idle key this millisecond: no key can have turned idle since, so a sample
        boolean sampleOnly = force && now == nothingEvictableAt;
        int budget = sampleOnly ? SAMPLE : Math.min(MAX_WALK, size.get() + SAMPLE); // at most a full lap
        int dropped = 0;
        int inSample = 0;
        int candidates = 0;
        while (budget-- > 0) {
            if (hand == null || !hand.hasNext()) {
                hand = buckets.entrySet().iterator();
                if (!hand.hasNext()) {
                    return true; // emptied concurrently
                }
            }
            Map.Entry<String, Bucket> e = hand.next();
            Bucket b = e.getValue();
            if (strategy.retire(b, cfg)) {
                if (remove(e.getKey(), b)) {
                    dropped++;
                }
            } else if (force && candidates < forcedBatch) {
                victimKeys[candidates] = e.getKey();
                victims[candidates++] = b;
            }
            if (++inSample >= SAMPLE && dropped > 0) {
                break; // idle keys found: no live state is touched
            }
        }
        if (dropped == 0) {
            for (int i = 0; i < candidates; i++) {
                remove(victimKeys[i], victims[i]); // forced: resets the budget of a non-idle key
            }
        }
        Arrays.fill(victimKeys, 0, candidates, null); // hold no key or bucket past the sweep
        Arrays.fill(victims, 0, candidates, null);
        boolean freed = dropped > 0 || candidates > 0 || size.get() < maxKeys;
        if (!freed) {
            emptyLaps++;
            nothingEvictableAt = now;
        } else if (dropped == 0 && force && !sampleOnly) {
            nothingEvictableAt = now; // a whole lap without an idle key (dropped == 0 never breaks off early)
        }
        return freed;
    }

    /**
     * What a thread does that finds another one walking, instead of waiting for it: true if a slot is free, or
     * freed here by dropping an idle key among the first {@value #SAMPLE} entries of a walk of its own (or, when
     * forced, the first live one: true then also when another thread removed that one first, so the caller
     * looks again and evict-oldest never refuses); false if the {@link OnFull} choice must answer. Its own
     * iterator, not the hand, which belongs to the walker; {@code remove} is safe against the walker removing the
     * same entry.
     */
    private boolean glance(LimitConfig cfg, boolean force) {
        if (size.get() < maxKeys) {
            return true;
        }
        Iterator<Map.Entry<String, Bucket>> it = buckets.entrySet().iterator();
        String liveKey = null;
        Bucket live = null;
        for (int i = 0; i < SAMPLE && it.hasNext(); i++) {
            Map.Entry<String, Bucket> e = it.next();
            Bucket b = e.getValue();
            if (strategy.retire(b, cfg)) {
                if (remove(e.getKey(), b)) {
                    return true;
                }
            } else if (force && live == null) {
                liveKey = e.getKey();
                live = b;
            }
        }
        if (live != null) {
            // forced, as the walker would have; if another thread removed it first, that freed a slot too:
            // look again (someone made progress, so the retries end)
            remove(liveKey, live);
            return true;
        }
        return size.get() < maxKeys;
    }

    /** Laps of the eviction hand that found nothing it may evict (tests). */
    long emptyLaps() {
        return emptyLaps;
    }

    @Override
    public String toString() {
        return "LocalKeyedLimiter[" + strategy.name() + ", " + config + ", keys=" + size.get() + "/" + maxKeys
                + ", on-full " + onFull.spelling() + "]";
    }
}
