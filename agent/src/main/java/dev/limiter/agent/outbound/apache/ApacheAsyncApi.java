package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
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
        HandleFinder f = new HandleFinder(loader, "org.apache.hc.client5.http.async");
        String route = "org.apache.hc.client5.http.HttpRoute";
        String host = "org.apache.hc.core5.http.HttpHost";
        String dependency = "org.apache.hc.core5.concurrent.CancellableDependency";
        Class<?> client = f.type("org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient");
        h[0] = HandleFinder.then(f.getter("AsyncExecChain$Scope", "route", route),
                f.virtual(route, "getTargetHost", host));
        h[1] = HandleFinder.then(f.getter("AsyncExecChain$Scope", "cancellableDependency", dependency),
                f.virtual(dependency, "isCancelled", boolean.class));
        h[2] = f.virtual("AsyncExecCallback", "failed", void.class, Exception.class);
        h[3] = MethodHandles.privateLookupIn(client, MethodHandles.lookup()).findVirtual(client, "executeImmediate",
                MethodType.methodType(void.class, f.type("org.apache.hc.core5.http.HttpRequest"),
                        f.type("org.apache.hc.core5.http.nio.AsyncEntityProducer"), f.type("AsyncExecChain$Scope"),
                        f.type("AsyncExecChain"), f.type("AsyncExecCallback")));
        h[4] = MethodHandles.identity(f.type("AsyncExecCallback")); // not called: it carries the callback's type
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
