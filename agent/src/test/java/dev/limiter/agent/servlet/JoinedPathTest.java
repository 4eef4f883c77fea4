package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;

/** The remembered join of servlet path and path info: same result as concatenation, one string per new path. */
class JoinedPathTest {

    private final JoinedPath paths = new JoinedPath();

    @Test
    void equalPartsReuseThePreviousJoinAndNewPartsJoinAgain() {
        String first = paths.join("/api", "/items/a");
        assertThat(first).isEqualTo("/api/items/a");
        // equal but not identical parts, as a container hands out for the next request
        assertThat(paths.join(new String("/api"), new String("/items/a"))).isSameAs(first);

        assertThat(paths.join("/api", "/items/b")).isEqualTo("/api/items/b");
        assertThat(paths.join("/ap", "i/items/b")).as("same text, other split").isEqualTo("/api/items/b");
        assertThat(paths.join("/other", "/items/b")).isEqualTo("/other/items/b");
        assertThat(paths.join("/api", "/items/a")).isEqualTo("/api/items/a").isNotSameAs(first);
    }

    @Test
    void pathOfARequestIsServletPathPlusPathInfoAndNeverConcatenatesASinglePart() throws Throwable {
        FakeHttp http = new FakeHttp("jakarta.servlet", "/items/a");
        ServletApi api = ServletApi.of(http.request);
        http.servletPath = "/api";
        String prefixMapped = paths.path(api, http.request);
        assertThat(prefixMapped).isEqualTo("/api/items/a").isEqualTo(api.path(http.request));
        assertThat(paths.path(api, http.request)).isSameAs(prefixMapped);

        http.pathInfo = null;
        assertThat(paths.path(api, http.request)).as("exact mapping").isSameAs(http.servletPath);
        http.servletPath = "";
        http.pathInfo = "/x";
        assertThat(paths.path(api, http.request)).as("default servlet").isSameAs(http.pathInfo);
        http.pathInfo = null;
        assertThat(paths.path(api, http.request)).isEqualTo("/");
    }
}
