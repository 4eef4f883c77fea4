package dev.limiter.agent.outbound.urlconnection;

import dev.limiter.agent.outbound.CallHold;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.agent.threads.DaemonThreads;
import dev.limiter.bootstrap.ClientBridge;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.net.HttpURLConnection;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What was decided for one connection: its rejection, thrown again by each of its later calls; or, for an admitted
 * one whose end matters ({@code concurrency}, {@code honor-retry-after}), that end, told once: when
 * {@code getInputStream} returns with the response's headers in, when a call of the connection fails, or, for a
 * connection dropped before either, when the connection is collected. It holds no reference to its connection (it
 * is the value of a weak map keyed by it).
 */
final class ConnectionState extends AtomicBoolean implements Runnable {

    /** Ends a dropped connection's call; its thread starts with the first connection that needs it. */
    private static final class Collected {
        static final Cleaner CLEANER = Cleaner.create(DaemonThreads.named("limiter-connection-cleaner"));
    }

    private final Throwable rejection;
    private final OutboundCallEnd end;

    private ConnectionState(Throwable rejection, OutboundCallEnd end) {
        this.rejection = rejection;
        this.end = end;
    }

    static ConnectionState rejected(Throwable rejection) {
        return new ConnectionState(rejection, null);
    }

    /** An admitted connection; {@code end} null if nothing waits for its end. */
    static ConnectionState admitted(HttpURLConnection connection, OutboundCallEnd end) {
        ConnectionState state = new ConnectionState(null, end);
        if (end == null) {
            state.set(true);
        } else {
            Collected.CLEANER.register(connection, state);
        }
        return state;
    }

    /** A call of the connection starts: the rejection to throw, or null to run it (holding its end if pending). */
    Object enter(HttpURLConnection connection) {
        if (rejection != null) {
            return rejection;
        }
        if (!get()) {
            ClientBridge.hold(new Hold(this, connection));
        }
        return null;
    }

    /** Tells the end, once: the response's {@code connection}, or null when the call failed or was dropped. */
    private void finish(HttpURLConnection connection) {
        if (compareAndSet(false, true)) {
            end.accept(connection, null);
        }
    }

    /** The connection was collected before its end was told. */
    @Override
    public void run() {
        finish(null);
    }

    /** Held from one woven call's start to its return: ends the call if that call brought the response. */
    private static final class Hold implements CallHold {

        private final ConnectionState state;
        private final HttpURLConnection connection;

        Hold(ConnectionState state, HttpURLConnection connection) {
            this.state = state;
            this.connection = connection;
        }

        @Override
        public Object returned(Object result) {
            if (result instanceof InputStream) {
                state.finish(connection);
            }
            return result;
        }

        @Override
        public void threw() {
            state.finish(null);
        }
    }
}
