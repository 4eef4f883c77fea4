package dev.limiter.agent.decision;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The path the {@code http:} rules see for a reactive server's request (Vert.x Web's {@code normalizedPath()}, a
 * WebFlux raw path with {@code ;}): every segment without its {@code ;} (matrix) parameters, then fully
 * percent-decoded (UTF-8), as a servlet container's {@code getServletPath()} is, and as Spring and Vert.x Web
 * route. So a rule is written as on servlets ({@code /api/café}, not its escapes), and a
 * client cannot step around it with {@code ;x} or an escape the application's own router (RESTEasy Reactive
 * decodes the path it matches) resolves to the same resource. An escaped {@code ;} ({@code %3B}) stays part of
 * its segment, as on servlets and Spring. Allocates only for a path holding {@code ;} or {@code %}.
 */
public final class RoutedPaths {

    private RoutedPaths() {
    }

    /** {@code normalized} cut and decoded; {@code normalized} itself if it holds neither {@code ;} nor {@code %}. */
    public static String ruleView(String normalized) {
        return decoded(withoutMatrixParameters(normalized));
    }

    /** {@code path} with every segment cut at its first {@code ;}; {@code path} itself if it holds none. */
    static String withoutMatrixParameters(String path) {
        if (path == null || path.indexOf(';') < 0) {
            return path;
        }
        StringBuilder cut = new StringBuilder(path.length());
        int at = 0;
        while (at < path.length()) {
            int slash = path.indexOf('/', at);
            int end = slash < 0 ? path.length() : slash;
            int semicolon = path.indexOf(';', at);
            cut.append(path, at, semicolon >= 0 && semicolon < end ? semicolon : end);
            if (slash < 0) {
                break;
            }
            cut.append('/');
            at = slash + 1;
        }
        return cut.toString();
    }

    /** {@code path} percent-decoded as UTF-8 ({@code +} stays {@code +}; a broken escape stays as it is). */
    static String decoded(String path) {
        if (path == null || path.indexOf('%') < 0) {
            return path;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%' && i + 2 < path.length() && hex(path.charAt(i + 1)) >= 0 && hex(path.charAt(i + 2)) >= 0) {
                bytes.write(hex(path.charAt(i + 1)) << 4 | hex(path.charAt(i + 2)));
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
