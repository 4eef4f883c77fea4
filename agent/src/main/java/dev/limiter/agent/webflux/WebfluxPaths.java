package dev.limiter.agent.webflux;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The path Spring WebFlux routes on, for a request path that carries {@code ;} segment parameters: Spring matches
 * each segment without them ({@code PathContainer}'s {@code valueToMatch}), so {@code /api/items/exact;x=1} reaches
 * the handler of {@code /api/items/exact}. The rules must see that path too, or a client escapes a rule by adding
 * {@code ;x}. Servlet containers strip them the same way before {@code getServletPath}. Only called when the path
 * holds a {@code ;} (allocation on that path only).
 */
final class WebfluxPaths {

    private WebfluxPaths() {
    }

    /**
     * {@code rawPath} (percent-encoded, as sent) with every segment cut at its first {@code ;}, then decoded (UTF-8;
     * {@code +} stays {@code +}): an encoded {@code %3B} is part of the segment, as for Spring.
     */
    static String withoutSegmentParameters(String rawPath) {
        if (rawPath == null) {
            return null;
        }
        StringBuilder cut = new StringBuilder(rawPath.length());
        int at = 0;
        while (at < rawPath.length()) {
            int slash = rawPath.indexOf('/', at);
            int end = slash < 0 ? rawPath.length() : slash;
            int semicolon = rawPath.indexOf(';', at);
            cut.append(rawPath, at, semicolon >= 0 && semicolon < end ? semicolon : end);
            if (slash < 0) {
                break;
            }
            cut.append('/');
            at = slash + 1;
        }
        return decode(cut.toString());
    }

    private static String decode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return encoded;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%' && i + 2 < encoded.length() && hex(encoded.charAt(i + 1)) >= 0
                    && hex(encoded.charAt(i + 2)) >= 0) {
                bytes.write(hex(encoded.charAt(i + 1)) << 4 | hex(encoded.charAt(i + 2)));
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
