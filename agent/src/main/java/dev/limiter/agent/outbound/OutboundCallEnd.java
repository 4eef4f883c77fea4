package dev.limiter.agent.outbound;

import dev.limiter.agent.http.PermitRelease;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.Rule;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * What an admitted outgoing call does when its answer comes: a {@code 429} or {@code 503} with
 * {@code Retry-After} pauses the keys of its rules that honour it (until then, at most their {@code max-backoff}),
 * for every client in the JVM; and the permits it held ({@code concurrency}) go back. Runs once, however the call
 * ends (an answer, a failure, a cancel); never throws into the client.
 */
public final class OutboundCallEnd implements BiConsumer<Object, Throwable>, CallHold {

    private final OutboundApi answers;
    private final PermitRelease permits;
    private final Rule[] honouring;
    private final String[] keys;

    OutboundCallEnd(OutboundApi answers, PermitRelease permits, Rule[] honouring, String[] keys) {
        this.answers = answers;
        this.permits = permits;
        this.honouring = honouring;
        this.keys = keys;
    }

    /**
     * The call method returned {@code result}: a future of the response (it ends when that completes) or the
     * response itself.
     */
    @Override
    public Object returned(Object result) {
        if (result instanceof CompletableFuture<?> future) {
            future.whenComplete(this);
        } else {
            accept(result, null);
        }
        return result;
    }

    @Override
    public void threw() {
        accept(null, null);
    }

    /** The call ended with {@code response} or {@code failure} (a completion stage's signal). */
    @Override
    public void accept(Object response, Throwable failure) {
        try {
            if (response != null && honouring != null) {
                int status = answers.status(response);
                if (status == 429 || status == 503) {
                    pause(answers.retryAfter(response));
                }
            }
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
        } finally {
            if (permits != null) {
                permits.release();
            }
        }
    }

    private void pause(String retryAfter) {
        long nanos = RetryAfter.nanos(retryAfter, System.currentTimeMillis());
        if (nanos <= 0) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < honouring.length; i++) {
            Rule rule = honouring[i];
            if (rule.pauses().pause(keys[i], now + Math.min(nanos, rule.maxBackoffNanos()), now)) {
                rule.stats().backOffs().increment();
            }
        }
    }
}
