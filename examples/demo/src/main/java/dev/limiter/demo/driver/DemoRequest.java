package dev.limiter.demo.driver;

/**
 * One request a simulated client sends.
 *
 * @param path    path and query, e.g. {@code /api/export?user=bob}
 * @param headers header name/value pairs, flattened ({@code name1, value1, name2, value2...})
 */
record DemoRequest(String path, String... headers) {

    /** The path without the query: what the rules match. */
    String matchPath() {
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
