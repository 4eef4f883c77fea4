package dev.limiter.rules;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.rules.response.HeaderText;
import java.util.ArrayList;
import java.util.List;

/**
 * The limits one request is held to: a rule's own {@code limits} (its main tier), or an override's. Every limit
 * has its own limiter (state per key) and header values; a call is admitted only if all of them admit it
 * ({@link dev.limiter.core.store.AllOf}). An {@code unlimited} override is a tier without limits.
 *
 * <p>The header values are fixed when the rules load: each limit is an item of the IETF draft's
 * {@code RateLimit-Policy} (named after the rule, and the limit's window when the tier has several), and that
 * header lists every item of the tier.
 */
public final class Tier {

    /** Most limits a tier may have: each is a CAS per call. */
    public static final int MAX_LIMITS = 8;

    private final String name;
    private final KeyedLimiter[] limiters;
    private final HeaderText[] texts;
    private final RuleStats stats;
    private final boolean releasesOnExit;
    private final boolean samplesLatency;
    private final long maxCost;

    private Tier(String name, KeyedLimiter[] limiters, LimitConfig[] configs, HeaderText[] texts, RuleStats stats) {
        this.name = name;
        this.limiters = limiters;
        this.texts = texts;
        this.stats = stats;
        this.releasesOnExit = limiters.length == 1 && limiters[0].strategy().releasesOnExit();
        this.samplesLatency = releasesOnExit && limiters[0].strategy().samplesLatency();
        long most = Long.MAX_VALUE;
        for (int i = 0; i < limiters.length; i++) {
            most = Math.min(most, budget(limiters[i], configs[i]));
        }
        this.maxCost = most;
    }

    /** The most permits {@code limiter} can ever grant one call now: its bucket's capacity, or its limit. */
    public static long budget(KeyedLimiter limiter) {
        return budget(limiter, limiter.config());
    }

    private static long budget(KeyedLimiter limiter, LimitConfig config) {
        return limiter.strategy().usesCapacity() ? config.capacity() : config.limit();
    }

    /**
     * A tier of {@code limiters} (ordered as they are asked: shortest window first) stating the limits they have
     * now.
     *
     * @param ruleId the rule's id, which names the header items
     * @param name   "" for the rule's own limits, else the override's name
     * @param stats  the counters of this tier (the rule's own for its main tier)
     */
    public static Tier of(String ruleId, String name, List<KeyedLimiter> limiters, RuleStats stats) {
        List<LimitConfig> configs = new ArrayList<>(limiters.size());
        for (KeyedLimiter limiter : limiters) {
            configs.add(limiter.config());
        }
        return of(ruleId, name, limiters, configs, stats);
    }

    /**
     * A tier of {@code limiters} whose header values and largest cost state {@code configs} (one per limiter): a
     * reload builds its tiers with the new limits while the surviving limiters still run the old ones, and
     * changes the limiters only when everything else is built.
     */
    public static Tier of(String ruleId, String name, List<KeyedLimiter> limiters, List<LimitConfig> configs,
            RuleStats stats) {
        KeyedLimiter[] array = limiters.toArray(new KeyedLimiter[0]);
        LimitConfig[] limits = configs.toArray(new LimitConfig[0]);
        if (limits.length != array.length) {
            throw new IllegalArgumentException("one limit per limiter: " + limits.length + " for " + array.length);
        }
        String base = name.isEmpty() ? ruleId : ruleId + "." + name;
        List<String> items = new ArrayList<>();
        List<String> itemNames = new ArrayList<>();
        for (int i = 0; i < array.length; i++) {
            LimitConfig config = limits[i];
            String item = array.length == 1 ? base : base + "." + windowName(config.windowMillis());
            long windowSeconds = Math.max(1, (config.windowMillis() + 999) / 1000);
            itemNames.add(item);
            items.add(array[i].strategy().releasesOnExit() ? "\"" + item + "\";q=" + config.limit()
                    : "\"" + item + "\";q=" + config.limit() + ";w=" + windowSeconds);
        }
        String policy = String.join(", ", items);
        HeaderText[] texts = new HeaderText[array.length];
        for (int i = 0; i < array.length; i++) {
            texts[i] = new HeaderText(itemNames.get(i), policy, Long.toString(limits[i].limit()));
        }
        return new Tier(name, array, limits, texts, stats);
    }

    /** A tier without limits: every call is admitted ({@code unlimited: true}). */
    public static Tier unlimited(String name, RuleStats stats) {
        return new Tier(name, new KeyedLimiter[0], new LimitConfig[0], new HeaderText[0], stats);
    }

    /** A window as its shortest exact spelling in the file's units: {@code 1h}, {@code 90s}, {@code 250ms}. */
    static String windowName(long millis) {
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis % sizes[i] == 0) {
                return millis / sizes[i] + units[i];
            }
        }
        return millis + "ms";
    }

    /** "" for the rule's own limits, else the override's name. */
    public String name() {
        return name;
    }

    /** The limiters, in the order they are asked; empty for an unlimited tier. Not to be modified. */
    public KeyedLimiter[] limiters() {
        return limiters;
    }

    /** The header values of limit {@code index}. */
    public HeaderText text(int index) {
        return texts[index];
    }

    public boolean unlimited() {
        return limiters.length == 0;
    }

    /**
     * The largest cost a call can ever be admitted with: the smallest {@link #budget} of the tier's limits
     * ({@code Long.MAX_VALUE} if unlimited). A cost read from an argument above it is rejected without asking.
     */
    public long maxCost() {
        return maxCost;
    }

    /** True for a {@code concurrency} tier: its one permit goes back when the call ends. */
    public boolean releasesOnExit() {
        return releasesOnExit;
    }

    /** True for an {@code adaptive} tier: its release carries how long the call held the permit. */
    public boolean samplesLatency() {
        return samplesLatency;
    }

    /** This tier's counters (an override's own; the rule's for its main tier). */
    public RuleStats stats() {
        return stats;
    }

    /** The limits as text, e.g. {@code 10/1s, 1000/1h}, or {@code unlimited}. */
    public String describe() {
        if (limiters.length == 0) {
            return "unlimited";
        }
        List<String> parts = new ArrayList<>();
        for (KeyedLimiter limiter : limiters) {
            parts.add(limiter.config().limit() + "/" + windowName(limiter.config().windowMillis()));
        }
        return String.join(", ", parts);
    }
}
