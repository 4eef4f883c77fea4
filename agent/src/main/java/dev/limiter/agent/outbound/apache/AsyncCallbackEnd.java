package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.outbound.OutboundCallEnd;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * An exchange callback ({@code AsyncExecCallback}) that tells the exchange's {@link OutboundCallEnd} how it ended (its
 * response's head, or its failure) before the client's own callback hears it. A proxy of the application's
 * interface: the agent's loader cannot see HttpClient to implement it. Made only for an exchange whose end matters
 * ({@code concurrency}, {@code honor-retry-after}).
 */
final class AsyncCallbackEnd implements InvocationHandler {

    private final Object callback;
    private final OutboundCallEnd end;

    private AsyncCallbackEnd(Object callback, OutboundCallEnd end) {
        this.callback = callback;
        this.end = end;
    }

    /** {@code callback}, told of the exchange's end first. */
    static Object wrap(ApacheAsyncApi api, Object callback, OutboundCallEnd end) {
        return Proxy.newProxyInstance(api.callbackType.getClassLoader(), new Class<?>[] {api.callbackType},
                new AsyncCallbackEnd(callback, end));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "handleResponse" -> end.accept(args[0], null);
            case "completed" -> end.accept(null, null);
            case "failed" -> end.accept(null, (Throwable) args[0]);
            default -> {
                // handleInformationResponse (1xx) and Object's methods: nothing ends
            }
        }
        try {
            return method.invoke(callback, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
