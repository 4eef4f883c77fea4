package dev.limiter.agent.outbound;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A client's callback that tells a call's {@link OutboundCallEnd} how the call ended before the application's own
 * callback hears it: a proxy of the application's callback interface (the agent's loader cannot see the client
 * library to implement it), forwarding every call. Made only for a call whose end matters ({@code concurrency},
 * {@code honor-retry-after}).
 */
public final class CallbackEnd implements InvocationHandler {

    /**
     * Which of a callback interface's methods say what: the one given the response (and the argument it is), the
     * one given the failure (and its argument), and one that says the call completed without either, if any.
     */
    public record Shape(String response, int responseArgument, String failure, int failureArgument,
            String completed) {
    }

    private final Shape shape;
    private final Object callback;
    private final OutboundCallEnd end;

    private CallbackEnd(Shape shape, Object callback, OutboundCallEnd end) {
        this.shape = shape;
        this.callback = callback;
        this.end = end;
    }

    /** {@code callback}, a {@code type}, told of the call's end first. */
    public static Object wrap(Class<?> type, Shape shape, Object callback, OutboundCallEnd end) {
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new CallbackEnd(shape, callback, end));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        int count = args == null ? 0 : args.length;
        if (name.equals(shape.response) && count > shape.responseArgument) {
            end.accept(args[shape.responseArgument], null);
        } else if (name.equals(shape.failure) && count > shape.failureArgument) {
            end.accept(null, (Throwable) args[shape.failureArgument]);
        } else if (name.equals(shape.completed) && count == 0) {
            end.accept(null, null);
        }
        try {
            return method.invoke(callback, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
