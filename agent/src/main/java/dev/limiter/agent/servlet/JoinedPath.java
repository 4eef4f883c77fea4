package dev.limiter.agent.servlet;

/**
 * The request path the rules match (servlet path plus path info), remembered per thread so that a servlet mapped
 * by prefix ({@code /api/*}) does not cost a new string on every request.
 *
 * <p>The container hands out the two parts separately, and only their concatenation can be matched. A thread
 * serves the same few endpoints over and over, so the last joined path is kept with its two parts and reused when
 * both parts are equal again: two short {@code equals} instead of a 40-60 byte string per request. A different
 * path costs one concatenation, as before. Exact and default mappings (one part empty) never concatenate.
 *
 * <p>Owned by one thread ({@link RequestScratch}); it holds three strings, never a request.
 */
final class JoinedPath {

    private String servletPath = "";
    private String pathInfo = "";
    private String joined = "";

    /** {@link ServletApi#path} without the concatenation when the parts are those of the previous request. */
    String path(ServletApi api, Object request) throws Throwable {
        String servlet = api.servletPath(request);
        String info = api.pathInfo(request);
        if (servlet == null || servlet.isEmpty()) {
            return info == null ? "/" : info;
        }
        if (info == null) {
            return servlet;
        }
        return join(servlet, info);
    }

    /** {@code servlet + info}, reusing the previous result when both parts are equal to the previous ones. */
    String join(String servlet, String info) {
        if (!info.equals(pathInfo) || !servlet.equals(servletPath)) {
            joined = servlet.concat(info);
            servletPath = servlet;
            pathInfo = info;
        }
        return joined;
    }
}
