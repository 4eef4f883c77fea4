package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.outbound.BoundClientApi;
import dev.limiter.agent.outbound.OutboundCall;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * OkHttp's call, request, URL, response and callback as the outbound gate reads and drives them, through their
 * public API ({@code Call}, {@code Request}, {@code HttpUrl}, {@code Response}, {@code Callback}; handles found
 * once per call class, {@link ErasedHandles}).
 */
final class OkHttpApi extends BoundClientApi {

    private static final int REQUEST = OWN_HANDLES;
    private static final int URL = OWN_HANDLES + 1;
    private static final int SCHEME = OWN_HANDLES + 2;
    private static final int HOST = OWN_HANDLES + 3;
    private static final int PORT = OWN_HANDLES + 4;
    private static final int PATH = OWN_HANDLES + 5;
    private static final int IS_CANCELED = OWN_HANDLES + 6;
    private static final int ENQUEUE = OWN_HANDLES + 7;
    private static final int ON_FAILURE = OWN_HANDLES + 8;
    /** Not called: it carries the {@code Callback} type, erased in every other handle. */
    private static final int CALLBACK = OWN_HANDLES + 9;

    private static final BindingCache<OkHttpApi> BY_CALL_CLASS =
            BindingCache.of(MethodHandles.lookup(), OkHttpApi.class, CALLBACK + 1);

    /** The {@code okhttp3.Callback} interface, for a callback that waits for a call's end; null if unbound. */
    final Class<?> callbackType;

    /** The API as the loader of {@code call}'s class (OkHttp's {@code RealCall}) sees it. */
    static OkHttpApi of(Object call) {
        return BY_CALL_CLASS.of(call);
    }

    private OkHttpApi(MethodHandle[] h, Throwable problem) {
        super(h, problem);
        callbackType = h[CALLBACK] == null ? null : h[CALLBACK].type().returnType();
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> call = ErasedHandles.type("okhttp3.Call", loader);
        Class<?> request = ErasedHandles.type("okhttp3.Request", loader);
        Class<?> httpUrl = ErasedHandles.type("okhttp3.HttpUrl", loader);
        Class<?> response = ErasedHandles.type("okhttp3.Response", loader);
        Class<?> callback = ErasedHandles.type("okhttp3.Callback", loader);
        MethodType text = MethodType.methodType(String.class);
        MethodType named = MethodType.methodType(String.class, String.class);
        h[METHOD] = lookup.findVirtual(request, "method", text);
        h[HEADER] = lookup.findVirtual(request, "header", named);
        h[STATUS] = lookup.findVirtual(response, "code", MethodType.methodType(int.class));
        h[RESPONSE_HEADER] = lookup.findVirtual(response, "header", named);
        h[REQUEST] = lookup.findVirtual(call, "request", MethodType.methodType(request));
        h[URL] = lookup.findVirtual(request, "url", MethodType.methodType(httpUrl));
        h[SCHEME] = lookup.findVirtual(httpUrl, "scheme", text);
        h[HOST] = lookup.findVirtual(httpUrl, "host", text);
        h[PORT] = lookup.findVirtual(httpUrl, "port", MethodType.methodType(int.class));
        h[PATH] = lookup.findVirtual(httpUrl, "encodedPath", text); // as sent
        h[IS_CANCELED] = lookup.findVirtual(call, "isCanceled", MethodType.methodType(boolean.class));
        h[ENQUEUE] = lookup.findVirtual(call, "enqueue", MethodType.methodType(void.class, callback));
        h[ON_FAILURE] = lookup.findVirtual(callback, "onFailure",
                MethodType.methodType(void.class, call, IOException.class));
        h[CALLBACK] = MethodHandles.identity(callback);
        MethodHandle keep = h[CALLBACK];
        ErasedHandles.eraseAll(h);
        h[CALLBACK] = keep;
    }

    /** Starts {@code decision} for {@code call}: its request's method and URL. */
    void begin(OutboundCall decision, Object call, boolean async) throws Throwable {
        Object request = object(REQUEST, call);
        Object url = object(URL, request);
        decision.begin(this, request, method(request), text(SCHEME, url), text(HOST, url), number(PORT, url),
                text(PATH, url), async);
    }

    boolean isCanceled(Object call) throws Throwable {
        return (boolean) handle(IS_CANCELED).invokeExact(call);
    }

    /** Enqueues {@code call} with {@code callback} (the woven method: the caller decides whether it is decided). */
    void enqueue(Object call, Object callback) throws Throwable {
        handle(ENQUEUE).invokeExact(call, callback);
    }

    /** Fails {@code callback} with {@code failure}, as OkHttp fails a call it could not make. */
    void onFailure(Object callback, Object call, IOException failure) throws Throwable {
        handle(ON_FAILURE).invokeExact(callback, call, failure);
    }
}
