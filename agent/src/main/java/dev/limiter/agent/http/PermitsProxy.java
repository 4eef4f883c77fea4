package dev.limiter.agent.http;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * The handler behind a JDK proxy of one of the application's own callback interfaces (a Vert.x {@code Handler}, a
 * servlet {@code AsyncListener}, Netty's {@code ReferenceCounted}) through which a server tells the agent that a
 * request has ended: the agent's loader cannot see those interfaces, and a proxy answers to them without defining
 * a class in the application's loader. The {@code Object} methods are answered here (identity, and a description
 * for a debugger); every other call goes to {@link #call}, which gives the request's permits back through
 * {@link #release} (once, however often the server calls).
 */
public abstract class PermitsProxy implements InvocationHandler {

    private final String description;
    /** Null only for the instance a binding makes its proxy class with. */
    private final PermitRelease permits;

    protected PermitsProxy(String description, PermitRelease permits) {
        this.description = description;
        this.permits = permits;
    }

    /** Gives the permits back, once; never throws. */
    public final void release() {
        if (permits != null) {
            permits.release();
        }
    }

    /** True once the permits are back (or if there were none). */
    public final boolean released() {
        return permits == null || permits.released();
    }

    @Override
    public final Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "hashCode":
                if (method.getParameterCount() == 0) {
                    return System.identityHashCode(proxy);
                }
                break;
            case "equals":
                if (method.getParameterCount() == 1) {
                    return proxy == args[0];
                }
                break;
            case "toString":
                if (method.getParameterCount() == 0) {
                    return description;
                }
                break;
            default:
                break;
        }
        return call(proxy, method.getName(), args);
    }

    /** A call of the interface's method {@code name}; returns what the interface method returns (null if void). */
    protected abstract Object call(Object proxy, String name, Object[] args) throws Throwable;
}
