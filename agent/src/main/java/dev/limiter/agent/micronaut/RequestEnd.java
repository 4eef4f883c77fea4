package dev.limiter.agent.micronaut;

import dev.limiter.agent.http.PermitRelease;
import dev.limiter.agent.http.PermitsProxy;

/**
 * Netty's {@code ReferenceCounted} as a JDK proxy over the permits of one request, set as one of its attributes:
 * Micronaut releases every reference-counted attribute of a request when it is done with it (its response written,
 * or discarded because the connection is gone, once the route has answered), exactly where the request ends for
 * Micronaut, so the permits go back there. A proxy, because the agent cannot implement the application's copy of
 * the interface with a class of its own; its class is made once per loader ({@link MicronautApi}). Only
 * {@code refCnt} and {@code release} are called: one count until released, none after.
 */
final class RequestEnd extends PermitsProxy {

    RequestEnd(PermitRelease release) {
        super("limiter permits of a Micronaut request", release);
    }

    @Override
    protected Object call(Object proxy, String name, Object[] args) {
        switch (name) {
            case "release": // release() and release(int): the permits go back once, however often asked
                release();
                return Boolean.TRUE;
            case "refCnt":
                return released() ? 0 : 1;
            default: // retain, touch: the same object
                return proxy;
        }
    }
}
