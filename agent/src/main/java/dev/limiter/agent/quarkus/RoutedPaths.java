package dev.limiter.agent.quarkus;

/**
 * The path the {@code http:} rules see for a Vert.x Web request whose path carries {@code ;} segment (matrix)
 * parameters: each segment without them, as the servlet containers and Spring strip them, so a client cannot step
 * around a rule by adding {@code ;x} to a path the application still serves. Allocates only for such a path.
 */
final class RoutedPaths {

    private RoutedPaths() {
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
}
