package dev.limiter.bootstrap;

/**
 * What {@link ReactiveBridge}, {@link GrpcBridge}, {@link FlowBridge} and {@link ClientBridge} do, once: a call that returns before it
 * ends (a publisher, a listener, a response flow) asks the installed {@link ReactiveDelegate} at its start, and
 * what the delegate holds ({@link #hold}) is kept in a per-thread slot only until the same call returns
 * ({@link #exit}) or throws ({@link #failed}) on the same thread. Each bridge has its own instance (its own
 * delegate and slot), so WebFlux, gRPC and Micronaut can serve in one JVM. Nothing thrown by the delegate reaches the application: it is counted in
 * {@link LimiterBridge#internalErrors()} and the call proceeds unchanged.
 */
final class DelegatedCalls {

    /** One slot per thread: the token of the call between its enter and its return (anonymous class: no lambda). */
    private final ThreadLocal<Object[]> held = new ThreadLocal<>() {
        @Override
        protected Object[] initialValue() {
            return new Object[1];
        }
    };

    private volatile ReactiveDelegate delegate;

    /** Before the call: null to run it, else what to return instead (the rejection). */
    Object enter(Object first, Object second) {
        ReactiveDelegate current = delegate;
        if (current == null || !LimiterBridge.isEnabled()) {
            return null;
        }
        try {
            return current.onExchangeStart(first, second);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            return null;
        }
    }

    /** Before a client's call ({@link ClientBridge}): null to send it, else what to throw or return instead. */
    Object enterCall(Object client, Object request, Object handler, Object push, boolean async) {
        ReactiveDelegate current = delegate;
        if (!(current instanceof ClientDelegate) || !LimiterBridge.isEnabled()) {
            return null;
        }
        try {
            return ((ClientDelegate) current).onCallStart(client, request, handler, push, async);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            return null;
        }
    }

    void hold(Object token) {
        held.get()[0] = token;
    }

    /** At each return: {@code result}, or it wrapped to give back what {@link #enter} held. */
    Object exit(Object result) {
        Object token = take();
        if (token == null) {
            return result;
        }
        ReactiveDelegate current = delegate;
        try {
            return current.onExchangeReturn(result, token);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            failed(current, token); // the call runs unwrapped: give the token back now rather than never
            return result;
        }
    }

    /** When the call throws: give back what {@link #enter} held. */
    void failed() {
        Object token = take();
        if (token != null) {
            failed(delegate, token);
        }
    }

    private static void failed(ReactiveDelegate current, Object token) {
        try {
            current.onExchangeFailed(token);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
        }
    }

    private Object take() {
        Object[] slot = held.get();
        Object token = slot[0];
        if (token != null) {
            slot[0] = null;
        }
        return token;
    }

    void install(ReactiveDelegate newDelegate) {
        delegate = newDelegate;
    }

    ReactiveDelegate delegate() {
        return delegate;
    }
}
