package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.outbound.OutboundCallEnd;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * An OkHttp {@code Callback} that tells the call's {@link OutboundCallEnd} how the call ended (its response, or its
 * failure) before the application's own callback hears it. A proxy of the application's {@code okhttp3.Callback}
 * interface: the agent's loader cannot see OkHttp to implement it. Made only for a call whose end matters
 * ({@code concurrency}, {@code honor-retry-after}).
 */
final class CallbackEnd implements InvocationHandler {

    private final Object callback;
    private final OutboundCallEnd end;

    private CallbackEnd(Object callback, OutboundCallEnd end) {
        this.callback = callback;
        this.end = end;
    }

    /** {@code callback}, told of the call's end first. */
    static Object wrap(OkHttpApi api, Object callback, OutboundCallEnd end) {
        return Proxy.newProxyInstance(api.callbackType.getClassLoader(), new Class<?>[] {api.callbackType},
                new CallbackEnd(callback, end));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (args != null && args.length == 2) {
            if ("onResponse".equals(method.getName())) {
                end.accept(args[1], null);
            } else if ("onFailure".equals(method.getName())) {
                end.accept(null, (Throwable) args[1]);
            }
        }
        try {
            return method.invoke(callback, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
