package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/** What a loader can see decides which classes of it are examined at all. */
class ApiVisibilityTest {

    /** Every target found through its API (not woven in one named class). */
    private static final int API_TARGETS = WeaveTarget.EVERY & ~WeaveTarget.EXACT_CLASSES;

    private final ApiVisibility apis = new ApiVisibility();

    @Test
    void theTestLoaderSeesEveryApiItsTestsUse() {
        // both servlet and both JAX-RS APIs, and Apache HttpClient 5: all on the test class path
        assertThat(apis.of(ApiVisibilityTest.class.getClassLoader())).isEqualTo(API_TARGETS);
    }

    @Test
    void theBootstrapLoaderAndAnEmptyLoaderSeeNone() throws Exception {
        assertThat(apis.of(null)).isZero();
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThat(apis.of(empty)).isZero();
            assertThat(apis.of(empty)).isZero();
        }
    }

    @Test
    void aLoaderWithOnlyTheJaxrsApiSeesOnlyTheMappers() throws Exception {
        URL jaxrsApi = jakarta.ws.rs.ext.ExceptionMapper.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader jaxrsOnly = new URLClassLoader(new URL[] {jaxrsApi}, null)) {
            assertThat(apis.of(jaxrsOnly)).isEqualTo(WeaveTarget.named("mapper-jakarta").bit);
        }
    }

    @Test
    void theLastLoaderAskedIsKnownWithoutAskingItAgain() throws Exception {
        ClassLoader testLoader = ApiVisibilityTest.class.getClassLoader();
        try (CountingLoader empty = new CountingLoader()) {
            assertThat(apis.known(null)).as("the bootstrap loader").isZero();
            assertThat(apis.known(testLoader)).isEqualTo(ApiVisibility.UNKNOWN);

            assertThat(apis.of(empty)).isZero();
            int asked = empty.lookups;
            assertThat(apis.known(empty)).isZero();
            assertThat(apis.known(testLoader)).as("only the last loader is known without the map")
                    .isEqualTo(ApiVisibility.UNKNOWN);

            assertThat(apis.of(testLoader)).isEqualTo(API_TARGETS);
            assertThat(apis.known(testLoader)).isEqualTo(API_TARGETS);
            assertThat(apis.known(empty)).isEqualTo(ApiVisibility.UNKNOWN);
            assertThat(apis.of(empty)).as("answered from the map again").isZero();
            assertThat(empty.lookups).as("a loader is asked once, however the answers alternate").isEqualTo(asked);
        }
    }

    /** Sees nothing and counts how often it was asked. */
    private static final class CountingLoader extends URLClassLoader {

        int lookups;

        CountingLoader() {
            super(new URL[0], null);
        }

        @Override
        public URL getResource(String name) {
            lookups++;
            return super.getResource(name);
        }
    }
}
