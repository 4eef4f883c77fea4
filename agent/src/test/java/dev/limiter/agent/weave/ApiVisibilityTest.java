package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/** What a loader can see decides which classes of it are examined at all. */
class ApiVisibilityTest {

    private final ApiVisibility apis = new ApiVisibility();

    @Test
    void theTestLoaderSeesBothServletAndBothJaxrsApis() {
        assertThat(apis.of(ApiVisibilityTest.class.getClassLoader()))
                .isEqualTo(WeaveTarget.SERVLETS | WeaveTarget.MAPPERS);
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
            assertThat(apis.of(jaxrsOnly)).isEqualTo(WeaveTarget.MAPPER_JAKARTA);
        }
    }
}
