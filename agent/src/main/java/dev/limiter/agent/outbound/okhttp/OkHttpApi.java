package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.outbound.BoundClientApi;
import dev.limiter.agent.outbound.OutboundCall;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

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
        HandleFinder f = new HandleFinder(loader, "okhttp3");
        h[METHOD] = f.virtual("Request", "method", String.class);
        h[HEADER] = f.virtual("Request", "header", String.class, String.class);
        h[STATUS] = f.virtual("Response", "code", int.class);
        h[RESPONSE_HEADER] = f.virtual("Response", "header", String.class, String.class);
        h[REQUEST] = f.virtual("Call", "request", "Request");
        h[URL] = f.virtual("Request", "url", "HttpUrl");
        h[SCHEME] = f.virtual("HttpUrl", "scheme", String.class);
        h[HOST] = f.virtual("HttpUrl", "host", String.class);
        h[PORT] = f.virtual("HttpUrl", "port", int.class);
        h[PATH] = f.virtual("HttpUrl", "encodedPath", String.class); // as sent
        h[IS_CANCELED] = f.virtual("Call", "isCanceled", boolean.class);
        h[ENQUEUE] = f.virtual("Call", "enqueue", void.class, "Callback");
        h[ON_FAILURE] = f.virtual("Callback", "onFailure", void.class, "Call", IOException.class);
        h[CALLBACK] = MethodHandles.identity(f.type("Callback"));
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
