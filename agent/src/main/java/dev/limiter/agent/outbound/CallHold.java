package dev.limiter.agent.outbound;

/**
 * What an adapter holds from a call's start to the return of its woven method ({@code ClientBridge.hold}): told
 * what the method returned, it may hand back something else in its place (a client whose call is a lazy publisher
 * wraps it), or told that the method threw.
 */
public interface CallHold {

    /** The woven method returned {@code result}: what it returns instead ({@code result} itself, or a wrapper). */
    Object returned(Object result) throws Throwable;

    /** The woven method threw: nothing more will come. */
    void threw();
}
