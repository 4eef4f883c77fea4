package dev.limiter.agent.outbound.jdk;

import dev.limiter.agent.decision.Reservations;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.bootstrap.ClientBridge;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * An asynchronous call sent later, without holding a thread while it waits: the JDK's delayed executor (one
 * timer thread for the whole JVM) starts it when its reserved time comes, and the future handed to the caller at
 * once completes with the call's own. Cancelled before it is sent, the call gives its reserved permits back and is
 * never sent; cancelled after, the call in flight is cancelled.
 *
 * <p>A call made to wait for its permit ({@code reserved} not null) is sent untouched: it was decided. A call
 * made to wait out a {@code Retry-After} pause goes through the rules again when the pause is over.
 */
final class DelayedSend implements Runnable, BiConsumer<Object, Throwable> {

    private final HttpClient client;
    private final HttpRequest request;
    private final HttpResponse.BodyHandler<Object> handler;
    private final HttpResponse.PushPromiseHandler<Object> push;
    private final Reservations reserved;
    private final OutboundCallEnd end;
    private final CompletableFuture<Object> result = new CompletableFuture<>();
    private volatile CompletableFuture<?> sent;

    @SuppressWarnings("unchecked")
    private DelayedSend(Object client, HttpRequest request, Object handler, Object push, Reservations reserved,
            OutboundCallEnd end) {
        this.client = (HttpClient) client;
        this.request = request;
        this.handler = (HttpResponse.BodyHandler<Object>) handler;
        this.push = (HttpResponse.PushPromiseHandler<Object>) push;
        this.reserved = reserved;
        this.end = end;
    }

    /** The future the caller gets at once; the call goes out after {@code nanos}. */
    static CompletableFuture<Object> schedule(Object client, HttpRequest request, Object handler, Object push,
            long nanos, Reservations reserved, OutboundCallEnd end) {
        DelayedSend later = new DelayedSend(client, request, handler, push, reserved, end);
        later.result.whenComplete(later);
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(later);
        return later.result;
    }

    /** The time has come: send the call, unless the caller gave up meanwhile. */
    @Override
    public void run() {
        if (result.isDone()) {
            return; // cancelled (or completed by the caller): the permits went back in accept
        }
        if (reserved != null) {
            reserved.sent();
        }
        try {
            CompletableFuture<?> call;
            if (reserved != null) {
                CompletableFuture<?>[] made = new CompletableFuture<?>[1];
                ClientBridge.untouched(() -> made[0] = send());
                call = made[0];
            } else {
                call = send(); // decided again by the woven client
            }
            sent = call;
            call.whenComplete((response, failure) -> {
                if (end != null) {
                    end.accept(response, failure);
                }
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(response);
                }
            });
            if (result.isCancelled()) {
                call.cancel(true);
            }
        } catch (Throwable t) {
            if (end != null) {
                end.accept(null, t);
            }
            result.completeExceptionally(t);
        }
    }

    private CompletableFuture<?> send() {
        return push == null ? client.sendAsync(request, handler) : client.sendAsync(request, handler, push);
    }

    /** The caller's future ended: if it was cancelled, the call gives back what it holds, or stops. */
    @Override
    public void accept(Object response, Throwable failure) {
        if (!result.isCancelled()) {
            return;
        }
        CompletableFuture<?> call = sent;
        if (call != null) {
            call.cancel(true);
            return;
        }
        if (reserved != null) {
            reserved.refund();
        }
        if (end != null) {
            end.accept(null, failure);
        }
    }
}
