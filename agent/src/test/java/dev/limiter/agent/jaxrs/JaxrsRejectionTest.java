package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Builds rejections through a real JAX-RS runtime (Jersey's {@code RuntimeDelegate}, jersey-common on the test
 * class path) from rules parsed the way the agent parses them.
 */
class JaxrsRejectionTest {

    private static final String RULES = """
            version: 1
            response:
              status: 503
              content-type: text/plain
              body: 'slow down: ${rule}, retry in ${retry_after}s'
              headers: both
            rules:
              - id: orders
                match: { jaxrs: { class: 'com.acme.OrderResource' } }
                limit: 10
                window: 1m
            """;

    private static final String DEFAULTS = """
            version: 1
            rules:
              - id: orders
                match: { jaxrs: { class: 'com.acme.OrderResource' } }
                limit: 10
                window: 1m
            """;

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void theConfiguredStatusHeadersAndBodyInAWebApplicationException() {
        RuleSet rules = parse(RULES);
        long[] out = rejectedOutcome();
        Throwable rejection = JaxrsRejection.create(loader, JaxrsNamespace.JAKARTA, rules.response(),
                rules.rule("orders"), out);

        assertThat(rejection).isExactlyInstanceOf(WebApplicationException.class).hasMessageContaining("orders");
        Response response = ((WebApplicationException) rejection).getResponse();
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.hasEntity()).isTrue();
        assertThat(response.getEntity()).isEqualTo("slow down: orders, retry in 3s");
        assertThat(response.getMediaType()).isEqualTo(MediaType.TEXT_PLAIN_TYPE);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("3");
        assertThat(response.getHeaderString("RateLimit-Policy")).isEqualTo(rules.rule("orders").policyHeader());
        assertThat(response.getHeaderString("RateLimit")).startsWith("\"orders\";r=0;t=");
        assertThat(response.getHeaderString("X-RateLimit-Limit")).isEqualTo("10");
        assertThat(response.getHeaderString("X-RateLimit-Remaining")).isEqualTo("0");
        assertThat(response.getHeaderString("X-RateLimit-Reset")).isEqualTo(Long.toString(out[Outcome.RESET_EPOCH_SECONDS]));
    }

    @Test
    void theDefaultResponseIsA429WithAJsonBodyAndTheDraftHeadersOnly() {
        RuleSet rules = parse(DEFAULTS);
        Response response = ((WebApplicationException) JaxrsRejection.create(loader, JaxrsNamespace.JAKARTA,
                rules.response(), rules.rule("orders"), rejectedOutcome())).getResponse();
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getMediaType()).isEqualTo(MediaType.APPLICATION_JSON_TYPE);
        assertThat(response.getEntity())
                .isEqualTo("{\"error\":\"too_many_requests\",\"rule\":\"orders\",\"retry_after\":3}");
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("3");
        assertThat(response.getHeaderString("RateLimit")).isNotNull();
        assertThat(response.getHeaderString("X-RateLimit-Limit")).isNull();
    }

    @Test
    void responseOfRecognisesOnlyTheRejectionLastCreatedOnThisThread() throws Exception {
        RuleSet rules = parse(DEFAULTS);
        Throwable first = JaxrsRejection.create(loader, JaxrsNamespace.JAKARTA, rules.response(), rules.rule("orders"),
                rejectedOutcome());
        assertThat(JaxrsRejection.responseOf(first)).isSameAs(((WebApplicationException) first).getResponse());

        WebApplicationException application = new WebApplicationException(Response.status(429).entity("app").build());
        assertThat(JaxrsRejection.responseOf(application)).isNull();
        assertThat(JaxrsRejection.responseOf(new IllegalStateException())).isNull();
        assertThat(JaxrsRejection.responseOf(null)).isNull();
        assertThat(CompletableFuture.supplyAsync(() -> JaxrsRejection.responseOf(first)).get()).isNull();

        Throwable second = JaxrsRejection.create(loader, JaxrsNamespace.JAKARTA, rules.response(),
                rules.rule("orders"), rejectedOutcome());
        assertThat(JaxrsRejection.responseOf(second)).isNotNull();
        assertThat(JaxrsRejection.responseOf(first)).isNull();
    }

    @Test
    void theApiIsLookedUpOncePerLoaderAndNamespace() {
        assertThat(JaxrsApi.of(loader, JaxrsNamespace.JAKARTA)).isSameAs(JaxrsApi.of(loader, JaxrsNamespace.JAKARTA));
        assertThat(JaxrsApi.ofException(WebApplicationException.class))
                .isSameAs(JaxrsApi.of(loader, JaxrsNamespace.JAKARTA));
    }

    @Test
    void aLoaderWithoutTheApiIsAClearError() throws Exception {
        RuleSet rules = parse(DEFAULTS);
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThatThrownBy(() -> JaxrsRejection.create(empty, JaxrsNamespace.JAKARTA, rules.response(),
                    rules.rule("orders"), rejectedOutcome()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("jakarta.ws.rs is not visible");
        }
        assertThatThrownBy(() -> JaxrsRejection.create(null, JaxrsNamespace.JAVAX, rules.response(),
                rules.rule("orders"), rejectedOutcome())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theContextLoaderIsRestoredAfterCreating() {
        RuleSet rules = parse(DEFAULTS);
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        ClassLoader other = new URLClassLoader(new URL[0], loader);
        Thread.currentThread().setContextClassLoader(other);
        try {
            JaxrsRejection.create(loader, JaxrsNamespace.JAKARTA, rules.response(), rules.rule("orders"),
                    rejectedOutcome());
            assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(other);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }

    @Test
    void aJavaxRejectionThroughARealJerseyTwoRuntime() throws Exception {
        try (JavaxRuntime webapp = JavaxRuntime.createOrNull(loader)) {
            assumeTrue(webapp != null, "the build provides no Jersey 2 runtime (system property "
                    + JavaxRuntime.PROPERTY + ")");
            RuleSet rules = parse(RULES);
            Throwable rejection = JaxrsRejection.create(webapp, JaxrsNamespace.JAVAX, rules.response(),
                    rules.rule("orders"), rejectedOutcome());
            assertThat(rejection.getClass().getName()).isEqualTo("javax.ws.rs.WebApplicationException");
            assertThat(rejection.getClass().getClassLoader()).isSameAs(webapp);
            Object response = call(rejection, "getResponse");
            assertThat(call(response, "getStatus")).isEqualTo(503);
            assertThat(call(response, "hasEntity")).isEqualTo(true);
            assertThat(call(response, "getEntity")).isEqualTo("slow down: orders, retry in 3s");
            assertThat(call(response, "getMediaType")).hasToString("text/plain");
            assertThat(call(response, "getHeaderString", "Retry-After")).isEqualTo("3");
            assertThat(call(response, "getHeaderString", "X-RateLimit-Limit")).isEqualTo("10");
            assertThat((String) call(response, "getHeaderString", "RateLimit")).startsWith("\"orders\";r=0;t=");
            assertThat(JaxrsRejection.responseOf(rejection)).isSameAs(response);
        }
    }

    private static Object call(Object target, String method, Object... args) throws Exception {
        Class<?>[] types = new Class<?>[args.length];
        java.util.Arrays.fill(types, String.class);
        return target.getClass().getMethod(method, types).invoke(target, args);
    }

    static RuleSet parse(String text) {
        return RuleSetLoader.parse(text, "rules.yml", RuleSet.empty(), new ManualClock(1_700_000_000_000L));
    }

    static long[] rejectedOutcome() {
        long[] out = Outcome.newArray();
        Outcome.reject(out, 0, System.currentTimeMillis() + 30_000, 2_500, 10);
        return out;
    }
}
