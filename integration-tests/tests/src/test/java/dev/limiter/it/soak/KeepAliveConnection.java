package dev.limiter.it.soak;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One client's HTTP/1.1 keep-alive connection to a test server over a plain socket: one GET at a time, the
 * response's status read and its body skipped by {@code Content-Length} or chunk sizes. Cheaper per request than
 * {@code java.net.http} (the soak's clients share two cores with the server), and every failure is an
 * {@link IOException} the caller counts: a request is either answered with a status or lost.
 *
 * <p>A response that announces {@code Connection: close} (Tomcat does after 100 requests on one connection) ends
 * the connection after it was read; the next request opens a new one, and {@link #opened()} counts them.
 */
final class KeepAliveConnection implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 20_000;
    /** A response that takes longer than this on a loaded 2-core machine counts as lost. */
    private static final int READ_TIMEOUT_MILLIS = 60_000;

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private long opened;

    KeepAliveConnection(int port) {
        this.port = port;
    }

    /** Connections opened so far (the first one included). */
    long opened() {
        return opened;
    }

    /**
     * Sends {@code GET target} with {@code headerLines} (each {@code "Name: value"}) and returns the status. On
     * an {@link IOException} the connection is closed, and the next call opens a new one.
     */
    int get(String target, String... headerLines) throws IOException {
        if (socket == null) {
            open();
        }
        try {
            StringBuilder request = new StringBuilder(128).append("GET ").append(target)
                    .append(" HTTP/1.1\r\nHost: 127.0.0.1:").append(port).append("\r\n");
            for (String line : headerLines) {
                request.append(line).append("\r\n");
            }
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return readResponse();
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    private void open() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
            s.setSoTimeout(READ_TIMEOUT_MILLIS);
            in = new BufferedInputStream(s.getInputStream(), 8192);
            out = new BufferedOutputStream(s.getOutputStream(), 1024);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        opened++;
    }

    /** Reads one response, skips its body, closes the connection if the server said so; returns the status. */
    private int readResponse() throws IOException {
        String statusLine = line();
        if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.1 response: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean closeAfter = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IOException("bad header line: " + header);
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.equalsIgnoreCase("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                closeAfter = value.equalsIgnoreCase("close");
            }
        }
        if (chunked) {
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                skip(size);
                line(); // the CRLF after the chunk
            }
            for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                // trailers: none expected
            }
        } else if (length >= 0) {
            skip(length);
        } else {
            throw new IOException("a response without Content-Length or chunked body (status " + status + ")");
        }
        if (closeAfter) {
            close();
        }
        return status;
    }

    private long chunkSize() throws IOException {
        String text = line();
        int semicolon = text.indexOf(';');
        return Long.parseLong((semicolon < 0 ? text : text.substring(0, semicolon)).trim(), 16);
    }

    private void skip(long bytes) throws IOException {
        for (long left = bytes; left > 0; ) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("connection closed inside a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    /** One line without its CRLF (ISO-8859-1). */
    private String line() throws IOException {
        StringBuilder text = new StringBuilder(64);
        for (int b = in.read(); ; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed after: " + text);
            }
            if (b == '\n') {
                int end = text.length();
                return end > 0 && text.charAt(end - 1) == '\r' ? text.substring(0, end - 1) : text.toString();
            }
            text.append((char) b);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing: nothing left to read
            }
            socket = null;
        }
    }
}
