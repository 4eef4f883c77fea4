package dev.limiter.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte as written: what {@code java.net.http.HttpClient} refuses to send
 * (unnormalised targets such as {@code /a/../b} kept as is, raw bytes above 0x7f in header values, oversized
 * headers, absolute-form targets). One request per connection ({@code Connection: close}), so the response ends
 * where the stream ends; a chunked body is decoded.
 */
final class RawHttp {

    /** A response: status, headers (names in lower case, last one wins), body as ISO-8859-1 text. */
    record Response(int status, Map<String, String> headers, String body, long nanos) {

        /** For failure messages and the report of what each container answered. */
        String summary() {
            String text = body.length() > 60 ? body.substring(0, 60) + "..." : body;
            return status + " " + text.replace("\r", "\\r").replace("\n", "\\n");
        }
    }

    private RawHttp() {
    }

    /** {@code GET target} with the given extra header lines ({@code "Name: value"}, written as ISO-8859-1). */
    static Response get(int port, String target, String... headerLines) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        write(request, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
        for (String line : headerLines) {
            write(request, line + "\r\n");
        }
        write(request, "Connection: close\r\n\r\n");
        return send(port, request.toByteArray());
    }

    /** Sends {@code request} as it is and reads the whole response. */
    static Response send(int port, byte[] request) {
        long started = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 20_000);
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            byte[] all = readAll(socket.getInputStream());
            return parse(all, System.nanoTime() - started);
        } catch (IOException e) {
            throw new UncheckedIOException("raw request to port " + port, e);
        }
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a server that refuses a request may reset the connection after its answer: keep what came
            if (all.size() == 0) {
                throw reset;
            }
        }
        return all.toByteArray();
    }

    private static Response parse(byte[] bytes, long nanos) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || headEnd < 0) {
            throw new IllegalStateException("not an HTTP response: " + text);
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        String body = text.substring(headEnd + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, body, nanos);
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            String sizeText = chunked.substring(at, lineEnd);
            int semicolon = sizeText.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeText : sizeText.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
