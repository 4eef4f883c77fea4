package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.outbound.BoundClientApi;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Apache HttpCore 5's request, target host and response as the outbound gate reads them, through public interfaces
 * ({@code HttpRequest}, {@code HttpHost}, {@code URIAuthority}, {@code MessageHeaders}, {@code NameValuePair},
 * {@code HttpResponse}; handles found once per client class, {@link ErasedHandles}).
 */
final class ApacheApi extends BoundClientApi {

    private static final BindingCache<ApacheApi> BY_CLIENT_CLASS =
            BindingCache.of(MethodHandles.lookup(), ApacheApi.class, 12);

    private final MethodHandle method;
    private final MethodHandle path;
    private final MethodHandle scheme;
    private final MethodHandle authority;
    private final MethodHandle authorityHost;
    private final MethodHandle authorityPort;
    private final MethodHandle targetScheme;
    private final MethodHandle targetHost;
    private final MethodHandle targetPort;
    private final MethodHandle firstHeader;
    private final MethodHandle headerValue;
    private final MethodHandle status;

    /** The API as the loader of {@code client}'s class (a {@code CloseableHttpClient}) sees it. */
    static ApacheApi of(Object client) {
        return BY_CLIENT_CLASS.of(client);
    }

    private ApacheApi(MethodHandle[] h, Throwable problem) {
        super(problem);
        method = h[0];
        path = h[1];
        scheme = h[2];
        authority = h[3];
        authorityHost = h[4];
        authorityPort = h[5];
        targetScheme = h[6];
        targetHost = h[7];
        targetPort = h[8];
        firstHeader = h[9];
        headerValue = h[10];
        status = h[11];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> request = ErasedHandles.type("org.apache.hc.core5.http.HttpRequest", loader);
        Class<?> host = ErasedHandles.type("org.apache.hc.core5.http.HttpHost", loader);
        Class<?> uriAuthority = ErasedHandles.type("org.apache.hc.core5.net.URIAuthority", loader);
        Class<?> headers = ErasedHandles.type("org.apache.hc.core5.http.MessageHeaders", loader);
        Class<?> header = ErasedHandles.type("org.apache.hc.core5.http.Header", loader);
        Class<?> pair = ErasedHandles.type("org.apache.hc.core5.http.NameValuePair", loader);
        Class<?> response = ErasedHandles.type("org.apache.hc.core5.http.HttpResponse", loader);
        MethodType text = MethodType.methodType(String.class);
        h[0] = lookup.findVirtual(request, "getMethod", text);
        h[1] = lookup.findVirtual(request, "getPath", text);
        h[2] = lookup.findVirtual(request, "getScheme", text);
        h[3] = lookup.findVirtual(request, "getAuthority", MethodType.methodType(uriAuthority));
        h[4] = lookup.findVirtual(uriAuthority, "getHostName", text);
        h[5] = lookup.findVirtual(uriAuthority, "getPort", MethodType.methodType(int.class));
        h[6] = lookup.findVirtual(host, "getSchemeName", text);
        h[7] = lookup.findVirtual(host, "getHostName", text);
        h[8] = lookup.findVirtual(host, "getPort", MethodType.methodType(int.class));
        h[9] = lookup.findVirtual(headers, "getFirstHeader", MethodType.methodType(header, String.class));
        h[10] = lookup.findVirtual(pair, "getValue", text);
        h[11] = lookup.findVirtual(response, "getCode", MethodType.methodType(int.class));
        ErasedHandles.eraseAll(h);
    }

    String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    /** The request's path without its query (allocates the cut only when there is a query). */
    String path(Object request) throws Throwable {
        String full = (String) path.invokeExact(request);
        if (full == null) {
            return null;
        }
        int query = full.indexOf('?');
        return query < 0 ? full : full.substring(0, query);
    }

    String scheme(Object target, Object request) throws Throwable {
        return target != null ? (String) targetScheme.invokeExact(target) : (String) scheme.invokeExact(request);
    }

    String host(Object target, Object request) throws Throwable {
        if (target != null) {
            return (String) targetHost.invokeExact(target);
        }
        Object named = (Object) authority.invokeExact(request);
        return named == null ? null : (String) authorityHost.invokeExact(named);
    }

    int port(Object target, Object request) throws Throwable {
        if (target != null) {
            return (int) targetPort.invokeExact(target);
        }
        Object named = (Object) authority.invokeExact(request);
        return named == null ? -1 : (int) authorityPort.invokeExact(named);
    }

    /** The first value of header {@code name} of a request or response, or null. */
    @Override
    public String header(Object message, String name) throws Throwable {
        Object first = (Object) firstHeader.invokeExact(message, name);
        return first == null ? null : (String) headerValue.invokeExact(first);
    }

    @Override
    public int status(Object response) throws Throwable {
        return (int) status.invokeExact(response);
    }

    @Override
    public String retryAfter(Object response) throws Throwable {
        return header(response, "Retry-After");
    }
}
