package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JaxrsNamespaceTest {

    @Test
    void namesTypesAndClassFilesOfEachGeneration() {
        assertThat(JaxrsNamespace.JAKARTA.type("GET")).isEqualTo("jakarta.ws.rs.GET");
        assertThat(JaxrsNamespace.JAVAX.type("core.Response")).isEqualTo("javax.ws.rs.core.Response");
        assertThat(JaxrsNamespace.JAKARTA.resource("Path")).isEqualTo("jakarta/ws/rs/Path.class");
        assertThat(JaxrsNamespace.JAVAX.resource("ext.ExceptionMapper")).isEqualTo("javax/ws/rs/ext/ExceptionMapper.class");
    }

    @Test
    void theResourcesNameRealClassFilesOfTheApis() {
        ClassLoader loader = getClass().getClassLoader();
        for (JaxrsNamespace ns : JaxrsNamespace.values()) {
            assertThat(loader.getResource(ns.resource("Path"))).as(ns.name()).isNotNull();
            assertThat(loader.getResource(ns.resource("core.Response"))).as(ns.name()).isNotNull();
        }
    }

    @Test
    void ownsItsPackageAndSubPackagesOnly() {
        assertThat(JaxrsNamespace.JAKARTA.owns("jakarta.ws.rs.core.Context")).isTrue();
        assertThat(JaxrsNamespace.JAKARTA.owns("jakarta.ws.rsx.Other")).isFalse();
        assertThat(JaxrsNamespace.JAVAX.owns("jakarta.ws.rs.GET")).isFalse();
    }
}
