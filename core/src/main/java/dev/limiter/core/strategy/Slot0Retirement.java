package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;

/**
 * Retirement for strategies whose whole state is slot 0 (the fixed and sliding windows): CAS an idle state to a
 * marker no real state takes. A check that read the state before loses its CAS and sees the marker on its retry,
 * so no permit is taken on a bucket the keyed store drops. One instance per strategy, so nothing is allocated.
 */
abstract class Slot0Retirement {

    private final long marker;

    Slot0Retirement(long marker) {
        this.marker = marker;
    }

    /** True if {@code state}, read from {@code bucket}'s slot 0, holds nothing a fresh bucket would not. */
    abstract boolean idle(Bucket bucket, LimitConfig config, long state);

    final boolean retire(Bucket bucket, LimitConfig config) {
        for (;;) {
            long state = bucket.slot0();
            if (state == marker) {
                return true; // idempotent, also when another thread retired it first
            }
            if (!idle(bucket, config, state)) {
                return false;
            }
            if (bucket.casSlot0(state, marker)) {
                return true;
            }
        }
    }

    final boolean isRetired(Bucket bucket) {
        return bucket.slot0() == marker;
    }
}
