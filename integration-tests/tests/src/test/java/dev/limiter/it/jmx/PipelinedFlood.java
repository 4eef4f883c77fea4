package dev.limiter.it.jmx;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Many GETs to one server over a few keep-alive connections, each connection writing requests in pipelined
 * batches and reading their responses back: a flood of 200,000 requests takes seconds on two cores where one
 * {@code HttpClient} exchange per request takes minutes. Only the status of each response is kept (bodies are
 * skipped by {@code Content-Length} or chunk sizes). A response announcing {@code Connection: close} ends the
 * connection; the requests of the batch it did not answer go out again on a new one.
 */
final class PipelinedFlood {

    /** Requests written before their responses are read (small enough for the socket buffers). */
    private static final int BATCH = 32;

    /** What the flood got back, and how fast. */
    record Result(long requests, long ok, long tooMany, long other, long reconnects, long nanos) {

        double perSecond() {
            return requests * 1e9 / nanos;
        }

        @Override
        public String toString() {
            return String.format("%,d requests in %.1f s (%,.0f/s): %,d x 200, %,d x 429, %,d other, %d reconnects",
                    requests, nanos / 1e9, perSecond(), ok, tooMany, other, reconnects);
        }
    }

    private final int port;
    private final int connections;

    PipelinedFlood(int port, int connections) {
        this.port = port;
        this.connections = connections;
    }

    /**
     * Sends requests {@code 0 .. requests-1}, {@code request.apply(i)} giving each one's header lines after the
     * request line (e.g. {@code "X-Api-Key: ...\r\n"}), request {@code i} on connection {@code i % connections}.
     */
    Result run(String path, int requests, IntFunction<String> headers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            long start = System.nanoTime();
            List<Future<long[]>> futures = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int first = c;
                futures.add(pool.submit(() -> connection(path, first, requests, headers)));
            }
            long[] sum = new long[4];
            for (Future<long[]> f : futures) {
                long[] counts = f.get(10, TimeUnit.MINUTES);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += counts[i];
                }
            }
            long nanos = System.nanoTime() - start;
            return new Result(requests, sum[0], sum[1], sum[2], sum[3], nanos);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One connection's share: requests first, first + connections, ...; returns {200s, 429s, others, reconnects}. */
    private long[] connection(String path, int first, int requests, IntFunction<String> headers) throws IOException {
        long[] counts = new long[4];
        String prefix = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        int[] batch = new int[BATCH];
        Socket socket = open();
        // buffered once per connection: a read may already hold the start of the next responses
        InputStream in = new BufferedInputStream(socket.getInputStream(), 65_536);
        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        try {
            int next = first;
            while (next < requests) {
                int n = 0;
                for (; n < BATCH && next < requests; n++, next += connections) {
                    batch[n] = next;
                }
                int answered = 0;
                while (answered < n) {
                    for (int i = answered; i < n; i++) {
                        out.write((prefix + headers.apply(batch[i]) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    }
                    out.flush();
                    boolean closed = false;
                    while (answered < n && !closed) {
                        int[] statusAndClose = readResponse(in);
                        int status = statusAndClose[0];
                        counts[status == 200 ? 0 : status == 429 ? 1 : 2]++;
                        answered++;
                        closed = statusAndClose[1] != 0;
                    }
                    if (closed) {
                        socket.close();
                        socket = open();
                        in = new BufferedInputStream(socket.getInputStream(), 65_536);
                        out = new BufferedOutputStream(socket.getOutputStream(), 8192);
                        counts[3]++;
                    }
                }
            }
        } finally {
            socket.close();
        }
        return counts;
    }

    private Socket open() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 20_000);
        socket.setSoTimeout(60_000);
        return socket;
    }

    /** Reads one response; returns {status, 1 if the server closes the connection after it}. */
    private static int[] readResponse(InputStream in) throws IOException {
        String statusLine = line(in);
        if (!statusLine.startsWith("HTTP/1.1 ")) {
            throw new IOException("not a response: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = 0;
        boolean chunked = false;
        boolean close = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.equalsIgnoreCase("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
                    size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
                skip(in, size);
                line(in); // the CRLF after the chunk
            }
            for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
                // trailers: none expected
            }
        } else {
            skip(in, length);
        }
        return new int[] {status, close ? 1 : 0};
    }

    private static void skip(InputStream in, long bytes) throws IOException {
        for (long left = bytes; left > 0; ) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed inside a body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    /** One header line without its CRLF (ISO-8859-1). */
    private static String line(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder(64);
        for (int b = in.read(); ; b = in.read()) {
            if (b < 0) {
                throw new UncheckedIOException(new IOException("connection closed after: " + text));
            }
            if (b == '\n') {
                int end = text.length();
                return end > 0 && text.charAt(end - 1) == '\r' ? text.substring(0, end - 1) : text.toString();
            }
            text.append((char) b);
        }
    }
}
