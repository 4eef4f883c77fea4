package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.outbound.BoundClientApi;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * OkHttp 4's call, request, URL, response and callback as the outbound gate reads and drives them, through their
 * public API ({@code Call}, {@code Request}, {@code HttpUrl}, {@code Response}, {@code Callback}; handles found
 * once per call class, {@link ErasedHandles}).
 */
final class OkHttpApi extends BoundClientApi {

    private static final BindingCache<OkHttpApi> BY_CALL_CLASS =
            BindingCache.of(MethodHandles.lookup(), OkHttpApi.class, 14);

    /** The {@code okhttp3.Callback} interface, for a callback that waits for a call's end; null if unbound. */
    final Class<?> callbackType;
    private final MethodHandle request;
    private final MethodHandle method;
    private final MethodHandle url;
    private final MethodHandle scheme;
    private final MethodHandle host;
    private final MethodHandle port;
    private final MethodHandle path;
    private final MethodHandle requestHeader;
    private final MethodHandle status;
    private final MethodHandle responseHeader;
    private final MethodHandle isCanceled;
    private final MethodHandle enqueue;
    private final MethodHandle onFailure;

    /** The API as the loader of {@code call}'s class (OkHttp's {@code RealCall}) sees it. */
    static OkHttpApi of(Object call) {
        return BY_CALL_CLASS.of(call);
    }

    private OkHttpApi(MethodHandle[] h, Throwable problem) {
        super(problem);
        request = h[0];
        method = h[1];
        url = h[2];
        scheme = h[3];
        host = h[4];
        port = h[5];
        path = h[6];
        requestHeader = h[7];
        status = h[8];
        responseHeader = h[9];
        isCanceled = h[10];
        enqueue = h[11];
        onFailure = h[12];
        callbackType = h[13] == null ? null : h[13].type().returnType();
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> call = ErasedHandles.type("okhttp3.Call", loader);
        Class<?> request = ErasedHandles.type("okhttp3.Request", loader);
        Class<?> httpUrl = ErasedHandles.type("okhttp3.HttpUrl", loader);
        Class<?> response = ErasedHandles.type("okhttp3.Response", loader);
        Class<?> callback = ErasedHandles.type("okhttp3.Callback", loader);
        MethodType text = MethodType.methodType(String.class);
        h[0] = lookup.findVirtual(call, "request", MethodType.methodType(request));
        h[1] = lookup.findVirtual(request, "method", text);
        h[2] = lookup.findVirtual(request, "url", MethodType.methodType(httpUrl));
        h[3] = lookup.findVirtual(httpUrl, "scheme", text);
        h[4] = lookup.findVirtual(httpUrl, "host", text);
        h[5] = lookup.findVirtual(httpUrl, "port", MethodType.methodType(int.class));
        h[6] = lookup.findVirtual(httpUrl, "encodedPath", text);
        h[7] = lookup.findVirtual(request, "header", MethodType.methodType(String.class, String.class));
        h[8] = lookup.findVirtual(response, "code", MethodType.methodType(int.class));
        h[9] = lookup.findVirtual(response, "header", MethodType.methodType(String.class, String.class));
        h[10] = lookup.findVirtual(call, "isCanceled", MethodType.methodType(boolean.class));
        h[11] = lookup.findVirtual(call, "enqueue", MethodType.methodType(void.class, callback));
        h[12] = lookup.findVirtual(callback, "onFailure", MethodType.methodType(void.class, call, IOException.class));
        // not called: it carries the Callback type, erased in every other handle
        h[13] = MethodHandles.identity(callback);
        MethodHandle keep = h[13];
        ErasedHandles.eraseAll(h);
        h[13] = keep;
    }

    /** The call's request. */
    Object request(Object call) throws Throwable {
        return (Object) request.invokeExact(call);
    }

    String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    /** The request's URL. */
    Object url(Object request) throws Throwable {
        return (Object) url.invokeExact(request);
    }

    String scheme(Object url) throws Throwable {
        return (String) scheme.invokeExact(url);
    }

    String host(Object url) throws Throwable {
        return (String) host.invokeExact(url);
    }

    int port(Object url) throws Throwable {
        return (int) port.invokeExact(url);
    }

    /** The URL's path as sent (encoded). */
    String path(Object url) throws Throwable {
        return (String) path.invokeExact(url);
    }

    /** A header of the outgoing request. */
    @Override
    public String header(Object request, String name) throws Throwable {
        return (String) requestHeader.invokeExact(request, name);
    }

    @Override
    public int status(Object response) throws Throwable {
        return (int) status.invokeExact(response);
    }

    @Override
    public String retryAfter(Object response) throws Throwable {
        return (String) responseHeader.invokeExact(response, "Retry-After");
    }

    boolean isCanceled(Object call) throws Throwable {
        return (boolean) isCanceled.invokeExact(call);
    }

    /** Enqueues {@code call} with {@code callback} (the woven method: the caller decides whether it is decided). */
    void enqueue(Object call, Object callback) throws Throwable {
        enqueue.invokeExact(call, callback);
    }

    /** Fails {@code callback} with {@code failure}, as OkHttp fails a call it could not make. */
    void onFailure(Object callback, Object call, IOException failure) throws Throwable {
        onFailure.invokeExact(callback, call, failure);
    }
}
