package io.netty.util.concurrent;

/**
 * A stand-in with the name of Netty's thread class (the agent's tests do not carry Netty): the agent tells event
 * loops by this name alone, so a thread of this class must never be parked.
 */
public class FastThreadLocalThread extends Thread {

    public FastThreadLocalThread(Runnable task) {
        super(task, "stand-in-event-loop");
    }
}
