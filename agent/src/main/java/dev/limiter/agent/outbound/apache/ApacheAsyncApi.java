package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.outbound.BindingProblem;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What the async client's adapter needs beyond {@link ApacheApi} (which reads the request and the response, the
 * same HttpCore interfaces): the scope's target host and whether the exchange was cancelled, the exchange callback's
 * {@code failed} and its interface (for a proxy), and the client's own {@code executeImmediate} (package-private:
 * found through a private lookup, open to the agent as every class of an unnamed module is), to send a call later.
 * Handles found once per client class.
 */
final class ApacheAsyncApi {

    private static final String ASYNC = "org.apache.hc.client5.http.async.";

    private static final BindingCache<ApacheAsyncApi> BY_CLIENT_CLASS =
            BindingCache.of(MethodHandles.lookup(), ApacheAsyncApi.class, 5);

    final BindingProblem problem;
    /** The {@code AsyncExecCallback} interface; null if unbound. */
    final Class<?> callbackType;
    private final MethodHandle target;
    private final MethodHandle cancelled;
    private final MethodHandle failed;
    private final MethodHandle execute;

    static ApacheAsyncApi of(Object client) {
        return BY_CLIENT_CLASS.of(client);
    }

    private ApacheAsyncApi(MethodHandle[] h, Throwable problem) {
        this.problem = new BindingProblem(problem);
        target = h[0];
        cancelled = h[1];
        failed = h[2];
        execute = h[3];
        callbackType = h[4] == null ? null : h[4].type().returnType();
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> scope = ErasedHandles.type(ASYNC + "AsyncExecChain$Scope", loader);
        Class<?> chain = ErasedHandles.type(ASYNC + "AsyncExecChain", loader);
        Class<?> callback = ErasedHandles.type(ASYNC + "AsyncExecCallback", loader);
        Class<?> route = ErasedHandles.type("org.apache.hc.client5.http.HttpRoute", loader);
        Class<?> host = ErasedHandles.type("org.apache.hc.core5.http.HttpHost", loader);
        Class<?> dependency = ErasedHandles.type("org.apache.hc.core5.concurrent.CancellableDependency", loader);
        Class<?> request = ErasedHandles.type("org.apache.hc.core5.http.HttpRequest", loader);
        Class<?> entity = ErasedHandles.type("org.apache.hc.core5.http.nio.AsyncEntityProducer", loader);
        Class<?> client = ErasedHandles.type("org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient",
                loader);
        h[0] = MethodHandles.filterReturnValue(lookup.findGetter(scope, "route", route),
                lookup.findVirtual(route, "getTargetHost", MethodType.methodType(host)));
        h[1] = MethodHandles.filterReturnValue(lookup.findGetter(scope, "cancellableDependency", dependency),
                lookup.findVirtual(dependency, "isCancelled", MethodType.methodType(boolean.class)));
        h[2] = lookup.findVirtual(callback, "failed", MethodType.methodType(void.class, Exception.class));
        h[3] = MethodHandles.privateLookupIn(client, MethodHandles.lookup()).findVirtual(client, "executeImmediate",
                MethodType.methodType(void.class, request, entity, scope, chain, callback));
        h[4] = MethodHandles.identity(callback); // not called: it carries the callback's type
        MethodHandle keep = h[4];
        ErasedHandles.eraseAll(h);
        h[4] = keep;
    }

    /** The target host of the exchange's {@code scope} (its route's). */
    Object target(Object scope) throws Throwable {
        return (Object) target.invokeExact(scope);
    }

    /** True if the caller cancelled the exchange of {@code scope}. */
    boolean cancelled(Object scope) throws Throwable {
        return (boolean) cancelled.invokeExact(scope);
    }

    /** Fails the exchange through its {@code callback}, as the client fails one it could not send. */
    void failed(Object callback, Exception failure) throws Throwable {
        failed.invokeExact(callback, failure);
    }

    /** {@code executeImmediate} of {@code client} with {@code arguments}, its last replaced by {@code callback}. */
    void execute(Object client, Object[] arguments, Object callback) throws Throwable {
        execute.invokeExact(client, arguments[0], arguments[1], arguments[2], arguments[3], callback);
    }
}
