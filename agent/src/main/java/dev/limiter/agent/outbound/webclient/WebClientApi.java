package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.outbound.BoundClientApi;
import dev.limiter.agent.outbound.OutboundCall;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Spring WebFlux's {@code ClientRequest} and {@code ClientResponse}, and the few Reactor {@code Mono} operators a
 * deferred decision needs, as the application's loader sees them (handles found once per request class,
 * {@link ErasedHandles}): Spring 6 and 7, Reactor 3.5 and later.
 */
final class WebClientApi extends BoundClientApi {

    private static final int URL = OWN_HANDLES;
    private static final int HTTP_METHOD = OWN_HANDLES + 1;
    private static final int HEADERS = OWN_HANDLES + 2;
    private static final int REQUEST_EXCEPTION = OWN_HANDLES + 3;
    private static final int DEFER = OWN_HANDLES + 4;
    private static final int ERROR = OWN_HANDLES + 5;
    private static final int DELAY_SUBSCRIPTION = OWN_HANDLES + 6;
    private static final int DO_ON_SUBSCRIBE = OWN_HANDLES + 7;
    private static final int DO_ON_CANCEL = OWN_HANDLES + 8;
    private static final int DO_ON_NEXT = OWN_HANDLES + 9;
    private static final int DO_FINALLY = OWN_HANDLES + 10;
    /** The exchange function's connector (a private field: an unnamed module opens every package). */
    private static final int CONNECTOR = OWN_HANDLES + 11;

    private static final BindingCache<WebClientApi> BY_REQUEST_CLASS =
            BindingCache.of(MethodHandles.lookup(), WebClientApi.class, CONNECTOR + 1);

    /**
     * Connectors whose client the agent weaves itself (the JDK client; Apache's async client): their requests are
     * decided there, once, not here too.
     */
    private static final String[] DECIDED_BELOW = {
        "org.springframework.http.client.reactive.JdkClientHttpConnector",
        "org.springframework.http.client.reactive.HttpComponentsClientHttpConnector",
    };

    /** The API as the loader of {@code request}'s class (a {@code ClientRequest}) sees it. */
    static WebClientApi of(Object request) {
        return BY_REQUEST_CLASS.of(request);
    }

    private WebClientApi(MethodHandle[] h, Throwable problem) {
        super(h, problem);
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "org.springframework.web.reactive.function.client");
        String headers = "org.springframework.http.HttpHeaders";
        String httpMethod = "org.springframework.http.HttpMethod";
        String status = "org.springframework.http.HttpStatusCode";
        String mono = "reactor.core.publisher.Mono";
        h[HTTP_METHOD] = f.virtual("ClientRequest", "method", httpMethod);
        h[HEADERS] = f.virtual("ClientRequest", "headers", headers);
        h[URL] = f.virtual("ClientRequest", "url", URI.class);
        h[METHOD] = HandleFinder.then(h[HTTP_METHOD], f.virtual(httpMethod, "name", String.class));
        h[HEADER] = HandleFinder.on(h[HEADERS], f.virtual(headers, "getFirst", String.class, String.class));
        h[STATUS] = HandleFinder.then(f.virtual("ClientResponse", "statusCode", status),
                f.virtual(status, "value", int.class));
        h[RESPONSE_HEADER] = HandleFinder.then(HandleFinder.on(
                f.virtual("ClientResponse", "headers", "ClientResponse$Headers"),
                f.virtual("ClientResponse$Headers", "header", List.class, String.class)),
                MethodHandles.lookup().findStatic(WebClientApi.class, "first",
                        MethodType.methodType(String.class, List.class)));
        h[REQUEST_EXCEPTION] = f.constructor("WebClientRequestException", Throwable.class, httpMethod, URI.class,
                headers);
        h[DEFER] = f.function(mono, "defer", mono, Supplier.class);
        h[ERROR] = f.function(mono, "error", mono, Throwable.class);
        h[DELAY_SUBSCRIPTION] = f.virtual(mono, "delaySubscription", mono, Duration.class);
        h[DO_ON_SUBSCRIBE] = f.virtual(mono, "doOnSubscribe", mono, Consumer.class);
        h[DO_ON_CANCEL] = f.virtual(mono, "doOnCancel", mono, Runnable.class);
        h[DO_ON_NEXT] = f.virtual(mono, "doOnNext", mono, Consumer.class);
        h[DO_FINALLY] = f.virtual(mono, "doFinally", mono, Consumer.class);
        Class<?> function = f.type("ExchangeFunctions$DefaultExchangeFunction");
        h[CONNECTOR] = MethodHandles.privateLookupIn(function, MethodHandles.lookup()).findGetter(function,
                "connector", f.type("org.springframework.http.client.reactive.ClientHttpConnector"));
        ErasedHandles.eraseAll(h);
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** True if the requests of exchange {@code function} are decided by the client under its connector. */
    boolean decidedBelow(Object function) throws Throwable {
        Object connector = object(CONNECTOR, function);
        String name = connector == null ? "" : connector.getClass().getName();
        for (String below : DECIDED_BELOW) {
            if (below.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Starts {@code call} for {@code request}: its method and URL; the call is asynchronous (never parks). */
    void begin(OutboundCall call, Object request) throws Throwable {
        URI url = (URI) handle(URL).invokeExact(request);
        call.begin(this, request, method(request), url.getScheme(), url.getHost(), url.getPort(), url.getPath(),
                true);
    }

    /**
     * What a rejected request's {@code Mono} fails with: Spring's {@code WebClientRequestException}, as for a
     * request that could not be sent, its cause being {@code rejection}.
     */
    Object requestException(Throwable rejection, Object request) throws Throwable {
        return (Object) handle(REQUEST_EXCEPTION).invokeExact(rejection, object(HTTP_METHOD, request),
                (URI) handle(URL).invokeExact(request), object(HEADERS, request));
    }

    /** {@code Mono.defer(supplier)}. */
    Object defer(Supplier<?> supplier) throws Throwable {
        return (Object) handle(DEFER).invokeExact(supplier);
    }

    /** {@code Mono.error(failure)}. */
    Object error(Throwable failure) throws Throwable {
        return (Object) handle(ERROR).invokeExact(failure);
    }

    /** {@code mono.delaySubscription(nanos)}: subscribed later on Reactor's timer, no thread waits. */
    Object delaySubscription(Object mono, long nanos) throws Throwable {
        return (Object) handle(DELAY_SUBSCRIPTION).invokeExact(mono, Duration.ofNanos(nanos));
    }

    Object doOnSubscribe(Object mono, Consumer<Object> action) throws Throwable {
        return (Object) handle(DO_ON_SUBSCRIBE).invokeExact(mono, action);
    }

    Object doOnCancel(Object mono, Runnable action) throws Throwable {
        return (Object) handle(DO_ON_CANCEL).invokeExact(mono, action);
    }

    Object doOnNext(Object mono, Consumer<Object> action) throws Throwable {
        return (Object) handle(DO_ON_NEXT).invokeExact(mono, action);
    }

    Object doFinally(Object mono, Consumer<Object> action) throws Throwable {
        return (Object) handle(DO_FINALLY).invokeExact(mono, action);
    }
}
