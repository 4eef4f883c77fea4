package dev.limiter.agent.jmx;

/**
 * One rule, registered as {@code dev.limiter:type=Rule,name=<id>}: its counters, its limits, the keys it throttles
 * most, and steering (mode, reset).
 *
 * <p>Reads go to the rule of that id in the rules in force at the time of the call, so an MBean that survives a
 * reload shows the new limits together with the counters the rule kept. An MXBean so that consoles need none of
 * the agent's classes.
 */
public interface RuleMXBean {

    /** The rule's id. */
    String getId();

    /** Requests the rule admitted. */
    long getAllowed();

    /** Requests the rule rejected (enforce mode). */
    long getRejected();

    /** Requests the rule would have rejected in dry-run mode (they were let through). */
    long getWouldReject();

    /** Times the limiter failed for this rule and {@code on-error} decided. */
    long getErrors();

    /** Keys with live state in the rule's limiter. */
    int getActiveKeys();

    /**
     * Requests of new keys refused because every key slot ({@code max-keys}) held live state: {@code on-full:
     * reject}, and {@code concurrency} rules under every choice. 0 for rules in Redis.
     */
    long getKeysRefused();

    /**
     * Requests of new keys admitted without state because every key slot held live state ({@code on-full:
     * allow}).
     */
    long getKeysAdmittedWithoutState();

    /** Permits per window (concurrency: calls in flight). */
    long getLimit();

    /** The window in milliseconds. */
    long getWindowMillis();

    /** The burst capacity (token and leaky bucket); the limit for strategies without one. */
    long getCapacity();

    /** The strategy name, e.g. {@code token-bucket}. */
    String getStrategy();

    /** What the rule counts by, e.g. {@code ip} or {@code header:X-Api-Key}. */
    String getKey();

    /** What the rule matches, e.g. {@code http GET /api/**}. */
    String getMatch();

    /**
     * Where the rule in force comes from: {@code rules.yml:12} (the file and the line of its entry),
     * {@code annotation com.acme.Mailer#send} (a {@code @Limit}), or the file's line followed by
     * {@code (overrides annotation com.acme.Mailer#send)}.
     */
    String getSource();

    /** {@code enforce} or {@code dry-run}: the mode in force. */
    String getMode();

    /**
     * Switches the mode at run time: {@code enforce}, {@code dry-run}, or {@code file} (or empty) to go back to
     * the file's mode. Survives reloads that keep the rule and leave its {@code mode:} unchanged.
     */
    void setMode(String mode);

    /** The mode the rules file gives. */
    String getFileMode();

    /**
     * The keys rejected most (dry-run: would have been rejected), at most ten, most first: a space-saving
     * summary, so a count may overestimate by at most its {@code error}.
     */
    KeyCount[] getTopRejectedKeys();

    /** Rejections not added to {@link #getTopRejectedKeys()} because another thread was recording one. */
    long getTopRejectedKeysDropped();

    /** Requests an {@code unless} entry exempted (matched, counted against no limit). */
    long getExempt();

    /**
     * True while the rule has matched nothing since it came in force: no call was allowed, rejected, exempted or
     * failed under it. Not an error (traffic may not have come yet), but the first thing to look at when a limit
     * seems not to hold: its path (within the application's context path), methods, class or gRPC names.
     */
    boolean isNeverMatched();

    /**
     * True for a {@code method:} or {@code jaxrs:} rule of the file whose class glob matched no loaded class at
     * the last check ({@code limiter.classCheck.delay} after start and after each reload; logged once as a
     * warning naming the nearest loaded class): it limits nothing until that class loads. False for other rules.
     */
    boolean isNoClassLoaded();

    /** Calls admitted with a wait ({@code on-limit: wait}): their permit was reserved for a later time. */
    long getWaited();

    /** The waits of those calls, summed, in milliseconds (rounded down). */
    long getWaitMillisTotal();

    /** Calls of the rule parked right now for their permit (bounded by {@code max-waiters}). */
    int getWaiting();

    /**
     * Calls that would have waited but were rejected at once (also in {@link #getRejected()}): the rule's
     * {@code max-waiters} were all waiting, or the thread was an event loop, which never parks.
     */
    long getWaitRefused();

    /**
     * Answers {@code 429} or {@code 503} with {@code Retry-After} that paused a key of an {@code http-client:} rule
     * ({@code honor-retry-after}); 0 for other rules.
     */
    long getBackOffs();

    /** Keys of an {@code http-client:} rule paused by such an answer now (ended pauses not yet swept included). */
    int getPausedKeys();

    /**
     * An {@code adaptive} rule's limit now, for the key of {@code key: global} (the one key such a rule usually
     * has; {@link #adaptive(String)} reads any key); -1 for other rules.
     */
    long getAdaptiveLimit();

    /** An {@code adaptive} rule's calls in flight, as {@link #getAdaptiveLimit()}; -1 for other rules. */
    long getAdaptiveInFlight();

    /**
     * An {@code adaptive} rule's estimate of the service's latency when nothing queues, in microseconds, as
     * {@link #getAdaptiveLimit()} (0 before the first window with enough calls); -1 for other rules.
     */
    long getAdaptiveNoLoadMicros();

    /** The mean latency of the last sampling window, in microseconds, as {@link #getAdaptiveNoLoadMicros()}. */
    long getAdaptiveLatencyMicros();

    /** The rule's own limits, shortest window first, e.g. {@code 10/1s, 1000/1h}. */
    String getLimits();

    /**
     * The overrides in file order, each with what it applies to, its limits and its own counts, e.g.
     * {@code gold: keys [k-gold-1] -> 100/1s, 50000/1h (allowed 12, rejected 0, would-reject 0)}.
     */
    String[] getOverrides();

    /** The rule's request condition, exemptions and cost, e.g. {@code unless ips [10.0.0.0/8]; cost 1}. */
    String getConditions();

    /** Zeroes the counters, forgets every key's state (all start with a full budget) and the top keys. */
    void reset();

    /** Forgets one key's state: it starts again with a full budget. */
    void resetKey(String key);

    /**
     * What an {@code adaptive} rule has learned for {@code key}, e.g. {@code limit 14, in flight 3, no-load
     * 20.1 ms, last window 31.0 ms}; "not adaptive" for other rules.
     */
    String adaptive(String key);

    /** The permits {@code key} has left now, without taking one. */
    long remaining(String key);
}
