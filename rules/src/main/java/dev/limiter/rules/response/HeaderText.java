package dev.limiter.rules.response;

/**
 * One rule's rate-limit header values: the fixed ones, precomputed ({@code RateLimit-Policy},
 * {@code X-RateLimit-Limit}), and those that change per response (the draft's {@code RateLimit} item, the
 * legacy {@code X-RateLimit-Remaining} and {@code -Reset} numbers), kept once written so that an admitted
 * request whose numbers were seen before sends them without building a string.
 *
 * <p>Why a cache: the servlet and JAX-RS APIs take header values as {@code String}s, and the allowed path
 * must not build strings. The numbers repeat: a key's remaining budget runs through the same values in every
 * window, with the same seconds-to-reset when its traffic is steady, and other keys run through the same
 * values too.
 *
 * <p>Indexed by the remaining budget itself: one slot per value below {@value #SLOTS}, so the values of one
 * window never evict each other; each remaining value keeps its two most recent seconds-to-reset (two ways, the
 * newer first). Larger remaining values (limits above {@value #SLOTS}, early in their window) are formatted
 * and not kept: they would only evict each other before coming round again. Reset times, consecutive epoch
 * seconds, have their own small table. Lock-free and bounded: every slot holds an immutable {@link Entry}
 * (final fields, so a reader on another thread sees it whole or not at all); a miss formats the text and writes
 * the slot; racing writers overwrite each other, which costs a later miss, never a wrong text. A value not kept
 * (e.g. every response of a limit in the millions) costs its string, as without the cache.
 */
public final class HeaderText {

    /** Remaining values below this are kept, each in its own slot. */
    static final int SLOTS = 1024;
    private static final int RESETS = 16;

    private final String policy;
    private final String limit;
    private final String draftPrefix;
    private final Entry[] draft = new Entry[2 * SLOTS]; // [2i] newer, [2i + 1] older seconds for remaining i
    private final Entry[] remaining = new Entry[SLOTS];
    private final Entry[] resets = new Entry[RESETS];

    /**
     * @param ruleId the rule id, as the draft's {@code RateLimit} item names it
     * @param policy the draft's {@code RateLimit-Policy} value, e.g. {@code "api-per-ip";q=100;w=1}
     * @param limit  the limit as text, for {@code X-RateLimit-Limit}
     */
    public HeaderText(String ruleId, String policy, String limit) {
        this.policy = policy;
        this.limit = limit;
        this.draftPrefix = "\"" + ruleId + "\";r=";
    }

    /** The draft's {@code RateLimit-Policy} value. */
    public String policy() {
        return policy;
    }

    /** The limit as text for {@code X-RateLimit-Limit}. */
    public String limit() {
        return limit;
    }

    /** The draft's {@code RateLimit} value: {@code "id";r=REMAINING;t=SECONDS}. */
    String rateLimit(long left, long seconds) {
        if (left < 0 || left >= SLOTS) {
            return format(left, seconds);
        }
        int newer = 2 * (int) left;
        Entry entry = draft[newer];
        if (entry != null && entry.value == left && entry.seconds == seconds) {
            return entry.text;
        }
        Entry older = draft[newer + 1];
        if (older != null && older.value == left && older.seconds == seconds) {
            return older.text;
        }
        Entry created = new Entry(left, seconds, format(left, seconds));
        draft[newer + 1] = entry;
        draft[newer] = created;
        return created.text;
    }

    /**
     * Formats a {@code RateLimit} value into a builder sized for it: the build compiles string concatenation
     * inline ({@code -XDstringConcat=inline}, for premain), where a {@code +} chain starts at 16 characters and
     * grows twice for a value like {@code "items";r=999999999;t=1} (176 B per value instead of 144).
     */
    private String format(long left, long seconds) {
        return new StringBuilder(draftPrefix.length() + 26).append(draftPrefix).append(left).append(";t=")
                .append(seconds).toString();
    }

    /** The remaining budget as decimal text ({@code X-RateLimit-Remaining}). */
    String remaining(long left) {
        return left < 0 || left >= SLOTS ? Long.toString(left) : number(remaining, (int) left, left);
    }

    /** A reset time in epoch seconds as decimal text ({@code X-RateLimit-Reset}). */
    String reset(long epochSeconds) {
        return number(resets, (int) (epochSeconds & (RESETS - 1)), epochSeconds);
    }

    private static String number(Entry[] table, int slot, long value) {
        Entry entry = table[slot];
        if (entry != null && entry.value == value) {
            return entry.text;
        }
        entry = new Entry(value, 0, Long.toString(value));
        table[slot] = entry;
        return entry.text;
    }

    /** An immutable (numbers, text) pair: safe to publish through a plain array write. */
    private static final class Entry {
        final long value;
        final long seconds;
        final String text;

        Entry(long value, long seconds, String text) {
            this.value = value;
            this.seconds = seconds;
            this.text = text;
        }
    }
}
