package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;

class ServletApiTest {

    @Test
    void eachRequestClassGetsItsOwnHiddenClassOfConstantHandles() throws Throwable {
        FakeHttp jakarta = new FakeHttp("jakarta.servlet", "/a");
        FakeHttp javax = new FakeHttp("javax.servlet", "/b");
        jakarta.method = "PUT";
        javax.method = "DELETE";

        ServletApi jakartaApi = ServletApi.of(jakarta.request);
        ServletApi javaxApi = ServletApi.of(javax.request);

        assertThat(jakartaApi.supported).isTrue();
        assertThat(javaxApi.supported).isTrue();
        assertThat(jakartaApi.callsClass().isHidden()).isTrue();
        assertThat(javaxApi.callsClass()).isNotSameAs(jakartaApi.callsClass());
        // each hidden class calls its own API's methods: the handles are not shared statics
        assertThat(jakartaApi.method(jakarta.request)).isEqualTo("PUT");
        assertThat(javaxApi.method(javax.request)).isEqualTo("DELETE");
        assertThat(jakartaApi.path(jakarta.request)).isEqualTo("/a");
        assertThat(javaxApi.path(javax.request)).isEqualTo("/b");
        assertThat(ServletApi.of(jakarta.request)).isSameAs(jakartaApi);
    }

    @Test
    void everyCallReachesTheRequestAndResponse() throws Throwable {
        FakeHttp http = new FakeHttp("jakarta.servlet", "/items");
        http.requestHeaders.put("X-Tenant", "acme");
        ServletApi api = ServletApi.of(http.request);

        assertThat(api.peer(http.request)).isEqualTo("10.0.0.1");
        assertThat(api.header(http.request, "X-Tenant")).isEqualTo("acme");
        assertThat(api.headerLines(http.request, "X-Tenant")).isEqualTo("acme");
        assertThat(api.principal(http.request)).isNull();
        // the fake reports no dispatcher type: the first dispatch falls back to the marker attribute
        assertThat(api.firstDispatch(http.request)).isTrue();
        assertThat(api.firstDispatch(http.request)).isFalse();
        assertThat(api.asyncStarted(http.request)).isFalse();

        api.status(http.response, 429);
        api.setHeader(http.response, "Retry-After", "3");
        api.contentType(http.response, "text/plain");
        api.body(http.response).write('x');
        assertThat(api.committed(http.response)).isFalse();
        assertThat(http.status).isEqualTo(429);
        assertThat(http.responseHeaders).containsEntry("Retry-After", "3");
        assertThat(http.contentType).isEqualTo("text/plain");
        assertThat(http.body.toString()).isEqualTo("x");
    }

    @Test
    void aRequestThatIsNotHttpIsUnsupported() {
        assertThat(ServletApi.of(new Object()).supported).isFalse();
        assertThat(ServletApi.of(null)).isSameAs(ServletApi.UNSUPPORTED);
    }
}
