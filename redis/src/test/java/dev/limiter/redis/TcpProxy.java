package dev.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on a free local port, standing for the virtual IP, DNS name or proxy that a Redis failover
 * moves from the old primary to the promoted replica: {@link #switchTo} points new connections at another port
 * and cuts the open ones, as a VIP moving to another host would. The store under test only ever knows this
 * proxy's address.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int targetPort;
    private volatile boolean closed;

    TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /** New connections go to {@code port}; every open one is cut (its client sees a reset or EOF). */
    void switchTo(int port) {
        targetPort = port;
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server;
                try {
                    server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                } catch (IOException refused) {
                    closeQuietly(client); // nothing listens at the target: the client sees the connection drop
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // cut by switchTo or closed by either side: end both directions
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        switchTo(targetPort);
    }
}
