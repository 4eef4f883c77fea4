package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.outbound.BoundClientApi;
import dev.limiter.agent.outbound.OutboundCall;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Apache HttpCore 5's request, target host and response as the outbound gate reads them, through public interfaces
 * ({@code HttpRequest}, {@code HttpHost}, {@code URIAuthority}, {@code MessageHeaders}, {@code NameValuePair},
 * {@code HttpResponse}; handles found once per client class, {@link ErasedHandles}).
 */
final class ApacheApi extends BoundClientApi {

    private static final int PATH = OWN_HANDLES;
    private static final int SCHEME = OWN_HANDLES + 1;
    private static final int AUTHORITY = OWN_HANDLES + 2;
    private static final int AUTHORITY_HOST = OWN_HANDLES + 3;
    private static final int AUTHORITY_PORT = OWN_HANDLES + 4;
    private static final int TARGET_SCHEME = OWN_HANDLES + 5;
    private static final int TARGET_HOST = OWN_HANDLES + 6;
    private static final int TARGET_PORT = OWN_HANDLES + 7;
    private static final int HEADER_VALUE = OWN_HANDLES + 8;

    private static final BindingCache<ApacheApi> BY_CLIENT_CLASS =
            BindingCache.of(MethodHandles.lookup(), ApacheApi.class, HEADER_VALUE + 1);

    /** The API as the loader of {@code client}'s class (a {@code CloseableHttpClient}) sees it. */
    static ApacheApi of(Object client) {
        return BY_CLIENT_CLASS.of(client);
    }

    private ApacheApi(MethodHandle[] h, Throwable problem) {
        super(h, problem);
    }

    /** {@link #HEADER}: {@code getFirstHeader(name)}, a {@code Header} whose value {@link #header} reads. */
    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "org.apache.hc.core5.http");
        String authority = "org.apache.hc.core5.net.URIAuthority";
        h[METHOD] = f.virtual("HttpRequest", "getMethod", String.class);
        h[HEADER] = f.virtual("MessageHeaders", "getFirstHeader", "Header", String.class);
        h[STATUS] = f.virtual("HttpResponse", "getCode", int.class);
        h[PATH] = f.virtual("HttpRequest", "getPath", String.class);
        h[SCHEME] = f.virtual("HttpRequest", "getScheme", String.class);
        h[AUTHORITY] = f.virtual("HttpRequest", "getAuthority", authority);
        h[AUTHORITY_HOST] = f.virtual(authority, "getHostName", String.class);
        h[AUTHORITY_PORT] = f.virtual(authority, "getPort", int.class);
        h[TARGET_SCHEME] = f.virtual("HttpHost", "getSchemeName", String.class);
        h[TARGET_HOST] = f.virtual("HttpHost", "getHostName", String.class);
        h[TARGET_PORT] = f.virtual("HttpHost", "getPort", int.class);
        h[HEADER_VALUE] = f.virtual("NameValuePair", "getValue", String.class);
        ErasedHandles.eraseAll(h);
    }

    /**
     * Starts {@code call} for {@code request}: its method and URI, the host from {@code target} (the client's
     * {@code HttpHost}) or else from the request's authority; {@code async}: the call must not park its thread.
     */
    void begin(OutboundCall call, Object target, Object request, boolean async) throws Throwable {
        Object named = target == null ? object(AUTHORITY, request) : null;
        call.begin(this, request, method(request), target != null ? text(TARGET_SCHEME, target)
                : text(SCHEME, request), host(target, named), port(target, named), path(request), async);
    }

    private String host(Object target, Object authority) throws Throwable {
        if (target != null) {
            return text(TARGET_HOST, target);
        }
        return authority == null ? null : text(AUTHORITY_HOST, authority);
    }

    private int port(Object target, Object authority) throws Throwable {
        if (target != null) {
            return number(TARGET_PORT, target);
        }
        return authority == null ? -1 : number(AUTHORITY_PORT, authority);
    }

    /** The request's path without its query (allocates the cut only when there is a query). */
    private String path(Object request) throws Throwable {
        String full = text(PATH, request);
        if (full == null) {
            return null;
        }
        int query = full.indexOf('?');
        return query < 0 ? full : full.substring(0, query);
    }

    /** The first value of header {@code name} of a request or response, or null. */
    @Override
    public String header(Object message, String name) throws Throwable {
        Object first = (Object) handle(HEADER).invokeExact(message, name);
        return first == null ? null : text(HEADER_VALUE, first);
    }

    @Override
    public String retryAfter(Object response) throws Throwable {
        return header(response, "Retry-After");
    }
}
