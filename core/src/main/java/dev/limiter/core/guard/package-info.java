/**
 * The library API: rate limits called from your own code, without the agent ({@link dev.limiter.core.guard.Guard},
 * {@link dev.limiter.core.guard.Limit}). Together with {@code Outcome}, {@code LimitConfig}, {@code KeyedLimiter},
 * {@code Strategy} and the clocks it is the stable surface of the {@code limiter-core} artifact; docs/library.md
 * lists what is API and shows a tested example.
 */
package dev.limiter.core.guard;
