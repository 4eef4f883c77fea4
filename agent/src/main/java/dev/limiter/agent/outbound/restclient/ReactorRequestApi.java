package dev.limiter.agent.outbound.restclient;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.outbound.BoundClientApi;
import dev.limiter.agent.outbound.OutboundCall;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.net.URI;

/**
 * Spring's {@code HttpRequest}, {@code HttpHeaders} and {@code ClientHttpResponse} as the outbound gate reads them
 * (handles found once per request class, {@link ErasedHandles}): the request's method and URI, a header of the
 * headers the request is executed with, the response's status and {@code Retry-After}.
 */
final class ReactorRequestApi extends BoundClientApi {

    private static final int URI_OF = OWN_HANDLES;

    private static final BindingCache<ReactorRequestApi> BY_REQUEST_CLASS =
            BindingCache.of(MethodHandles.lookup(), ReactorRequestApi.class, URI_OF + 1);

    /** The API as the loader of {@code request}'s class sees it. */
    static ReactorRequestApi of(Object request) {
        return BY_REQUEST_CLASS.of(request);
    }

    private ReactorRequestApi(MethodHandle[] h, Throwable problem) {
        super(h, problem);
    }

    /** {@link #HEADER} reads the executed headers ({@code HttpHeaders.getFirst}), the call's "request". */
    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "org.springframework.http");
        MethodHandle first = f.virtual("HttpHeaders", "getFirst", String.class, String.class);
        h[METHOD] = HandleFinder.then(f.virtual("HttpRequest", "getMethod", "HttpMethod"),
                f.virtual("HttpMethod", "name", String.class));
        h[URI_OF] = f.virtual("HttpRequest", "getURI", URI.class);
        h[HEADER] = first;
        String response = "org.springframework.http.client.ClientHttpResponse";
        h[STATUS] = HandleFinder.then(f.virtual(response, "getStatusCode", "HttpStatusCode"),
                f.virtual("HttpStatusCode", "value", int.class));
        h[RESPONSE_HEADER] = HandleFinder.on(f.virtual(response, "getHeaders", "HttpHeaders"), first);
        ErasedHandles.eraseAll(h);
    }

    /** Starts {@code call} for {@code request}, its headers being {@code headers}. */
    void begin(OutboundCall call, Object request, Object headers) throws Throwable {
        URI uri = (URI) handle(URI_OF).invokeExact(request);
        call.begin(this, headers, method(request), uri.getScheme(), uri.getHost(), uri.getPort(), uri.getPath(), false);
    }
}
