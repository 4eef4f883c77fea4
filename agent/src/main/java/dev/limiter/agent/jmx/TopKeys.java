package dev.limiter.agent.jmx;

import dev.limiter.agent.decision.RejectedKeyFeed;
import dev.limiter.agent.decision.RejectedKeySink;
import dev.limiter.rules.RuleStats;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded "who is rejected most" summary of one rule: the space-saving algorithm (Metwally et al.) over a
 * fixed number of slots, so memory stays constant however many distinct keys are rejected.
 *
 * <p>Fed from the reject path, where a flood of rejections must neither grow memory nor make request threads wait
 * on each other: {@link #offer} only {@code tryLock}s, and a sample that finds the lock taken is dropped and
 * counted ({@link #dropped()}). Under a flood the summary is therefore a sample, which is what a top-N needs. A
 * key already tracked costs a scan of the slots and no allocation. Space-saving guarantees: a key rejected more
 * than {@code total / slots} times is in the summary, and each count overestimates by at most its error.
 */
final class TopKeys implements RejectedKeySink {

    /** Slots of every rule's summary. */
    static final int DEFAULT_SLOTS = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final LongAdder dropped = new LongAdder();
    private final String[] keys;
    private final long[] counts;
    private final long[] errors;
    private int size;

    TopKeys(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1: " + slots);
        }
        keys = new String[slots];
        counts = new long[slots];
        errors = new long[slots];
    }

    /** The summary of the rule owning {@code stats}, subscribed to its rejected keys if it was not yet. */
    static TopKeys track(RuleStats stats) {
        RejectedKeySink sink = RejectedKeyFeed.of(stats);
        if (sink instanceof TopKeys top) {
            return top;
        }
        return (TopKeys) RejectedKeyFeed.subscribe(stats, new TopKeys(DEFAULT_SLOTS));
    }

    /** The summary of the rule owning {@code stats}, or null if it is not tracked. */
    static TopKeys of(RuleStats stats) {
        return RejectedKeyFeed.of(stats) instanceof TopKeys top ? top : null;
    }

    /** Stops tracking a rule that is no longer in force. */
    static void untrack(RuleStats stats) {
        RejectedKeyFeed.unsubscribe(stats);
    }

    /** Counts one rejection of {@code key}, unless another thread is counting one right now. */
    @Override
    public void offer(String key) {
        if (key == null) {
            return;
        }
        if (!lock.tryLock()) {
            dropped.increment();
            return;
        }
        try {
            add(key);
        } finally {
            lock.unlock();
        }
    }

    private void add(String key) {
        for (int i = 0; i < size; i++) {
            if (key.equals(keys[i])) {
                counts[i]++;
                return;
            }
        }
        if (size < keys.length) {
            keys[size] = key;
            counts[size] = 1;
            errors[size] = 0;
            size++;
            return;
        }
        int min = 0;
        for (int i = 1; i < size; i++) {
            if (counts[i] < counts[min]) {
                min = i;
            }
        }
        // the newcomer inherits the evicted count as its possible overestimate
        keys[min] = key;
        errors[min] = counts[min];
        counts[min]++;
    }

    /** The tracked keys, most rejected first (ties by key, for a stable display). */
    KeyCount[] snapshot() {
        KeyCount[] result;
        lock.lock();
        try {
            result = new KeyCount[size];
            for (int i = 0; i < size; i++) {
                result[i] = new KeyCount(keys[i], counts[i], errors[i]);
            }
        } finally {
            lock.unlock();
        }
        Arrays.sort(result, Comparator.comparingLong(KeyCount::getCount).reversed()
                .thenComparing(KeyCount::getKey));
        return result;
    }

    /** Samples dropped because the summary was busy. */
    long dropped() {
        return dropped.sum();
    }

    /** Forgets every key and the dropped count. */
    void clear() {
        lock.lock();
        try {
            Arrays.fill(keys, null);
            Arrays.fill(counts, 0);
            Arrays.fill(errors, 0);
            size = 0;
            dropped.reset();
        } finally {
            lock.unlock();
        }
    }
}
