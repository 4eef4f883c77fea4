package dev.limiter.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The mutable state of one key under one rule: two 64-bit slots updated by compare-and-set.
 *
 * <p>Why two plain {@code long} fields behind {@link VarHandle}s instead of {@code AtomicLong}s: the object is
 * 12 bytes of header + 2 x 8 bytes + 4 bytes of padding = 32 bytes per key (compressed class pointers), and a
 * slot is read without chasing a second pointer. Two {@code AtomicLong}s would cost 16 + 2 x 24 = 64 more
 * bytes and one extra dependent load per access (see docs/strategies.md for the measurement).
 *
 * <p>Which slot means what is the strategy's business. All built-in strategies keep their whole state in one or
 * two slots. A custom strategy that needs more state (a ring of timestamps) subclasses {@code Bucket} and adds
 * its own pre-allocated fields; the class is not final for that reason.
 *
 * <p>Memory semantics: reads are volatile, writes are volatile or CAS: a value read by one thread after a CAS
 * by another sees everything that thread did before the CAS.
 */
public class Bucket {

    private static final VarHandle SLOT0;
    private static final VarHandle SLOT1;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SLOT0 = lookup.findVarHandle(Bucket.class, "slot0", long.class);
            SLOT1 = lookup.findVarHandle(Bucket.class, "slot1", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through SLOT0
    private long slot0;
    @SuppressWarnings("unused") // accessed through SLOT1
    private long slot1;

    /** A bucket with both slots zero. */
    public Bucket() {
    }

    /** A bucket with initial slot values (published safely by the map that holds it). */
    public Bucket(long slot0, long slot1) {
        this.slot0 = slot0;
        this.slot1 = slot1;
    }

    public final long slot0() {
        return (long) SLOT0.getVolatile(this);
    }

    public final long slot1() {
        return (long) SLOT1.getVolatile(this);
    }

    public final void setSlot0(long value) {
        SLOT0.setVolatile(this, value);
    }

    public final void setSlot1(long value) {
        SLOT1.setVolatile(this, value);
    }

    /** Atomically sets slot 0 to {@code update} if it still holds {@code expect}. */
    public final boolean casSlot0(long expect, long update) {
        return SLOT0.compareAndSet(this, expect, update);
    }

    /** Atomically sets slot 1 to {@code update} if it still holds {@code expect}. */
    public final boolean casSlot1(long expect, long update) {
        return SLOT1.compareAndSet(this, expect, update);
    }

    /** Atomically adds {@code delta} to slot 0; returns the previous value. */
    public final long getAndAddSlot0(long delta) {
        return (long) SLOT0.getAndAdd(this, delta);
    }
}
