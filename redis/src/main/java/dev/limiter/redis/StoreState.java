package dev.limiter.redis;

/** The state of a {@link RedisStore}, as JMX shows it. */
public enum StoreState {
    /** Redis answers: checks are shared by every JVM. */
    UP,
    /** Redis did not answer: the circuit is open, checks apply {@link OnFailure} until a probe succeeds. */
    FALLBACK,
    /** The store was closed: every check applies {@link OnFailure}. */
    DOWN
}
