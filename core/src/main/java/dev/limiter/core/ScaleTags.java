package dev.limiter.core;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Small integer tags for the fixed-point scales of {@link LimitConfig#unitScale()}, so a bucket's slot 1 can
 * hold both the scale its state is written in and a conversion generation.
 *
 * <p>Why a tag and not the scale itself: a scale needs 63 bits, and a scale alone cannot tell "still A" from
 * "A again after A -> B -> A". A check that read slot 0 in between would pass its recheck and could write a
 * value of one scale into a bucket of another. With {@code generation << 32 | tag} every conversion changes
 * slot 1. Tags are handed out on configuration paths only (synchronized, copy-on-write); reading one back is
 * a volatile array read, on the rare conversion path.
 */
public final class ScaleTags {

    private static final Map<Long, Integer> TAGS = new HashMap<>();
    private static volatile long[] scales = new long[0];

    private ScaleTags() {
    }

    /** The tag of {@code scale}, assigned on first use; at most one per distinct (limit, window) ratio. */
    static synchronized int tagOf(long scale) {
        Integer known = TAGS.get(scale);
        if (known != null) {
            return known;
        }
        int tag = scales.length;
        long[] grown = Arrays.copyOf(scales, tag + 1);
        grown[tag] = scale;
        scales = grown;
        TAGS.put(scale, tag);
        return tag;
    }

    /** The scale a tag stands for. */
    public static long scaleOf(int tag) {
        return scales[tag];
    }
}
