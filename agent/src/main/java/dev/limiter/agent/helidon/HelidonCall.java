package dev.limiter.agent.helidon;

import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.threads.SlotPool;
import dev.limiter.bootstrap.LimiterBridge;

/**
 * One request's buffers for its decision ({@link HttpExchange}), borrowed from the {@link HelidonLimiter}'s pool at the woven
 * entry: Helidon runs each connection (HTTP/1) or stream (HTTP/2) on a new virtual thread, so buffers kept per
 * thread would be made again for every connection. While the gate decides, it holds Helidon's request and
 * response (it is the gate's request and response, {@link HelidonApi}); an admitted request that took permits
 * keeps it until the woven method's exit, which runs it ({@link Runnable}): the permits go back, and the call goes
 * back to the pool. Only the thread that borrowed it touches it.
 *
 * <p>It also keeps the address text of the last connection it served, by that connection's id (one string per
 * connection, compared by identity), so an {@code ip} key on a kept-alive connection reads the address once.
 */
final class HelidonCall extends HttpExchange implements Runnable {

    private final SlotPool<HelidonCall> pool;
    /** Helidon's request and response while the gate decides; null otherwise. */
    Object request;
    Object response;
    private String socketId;
    private String peer;

    /** {@code parks}: true on a request's own virtual thread, where an {@code on-limit: wait} rule may wait. */
    HelidonCall(boolean parks, SlotPool<HelidonCall> pool) {
        super(parks);
        this.pool = pool;
    }

    /** The address text of the request's peer: read again only when the request comes on another connection. */
    String peer(HelidonApi api) throws Throwable {
        String id = api.socketId(request);
        if (id != socketId || peer == null) {
            peer = api.peerAddress(request);
            socketId = id;
        }
        return peer;
    }

    /** The woven method's exit: gives the permits back, then this call to the pool. Runs once per borrowing. */
    @Override
    public void run() {
        try {
            permits.releaseTo(0);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            return; // not pooled again: it may still hold what could not be given back
        }
        pool.give(this);
    }

    /** Drops Helidon's objects (the gate's {@link #end} too): a pooled call never keeps a request alive. */
    void clear() {
        request = null;
        response = null;
    }
}
