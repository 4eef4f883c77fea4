package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import jaxrstest.CatchAllMapper;
import jaxrstest.JavaxCatchAllMapper;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;
import weavingtest.JavaxHello;

/** Super types found from class-file headers: direct, through a superclass chain and interfaces, or not at all. */
class SuperTypesTest {

    private final SuperTypes superTypes = new SuperTypes();
    private final ClassLoader loader = SuperTypesTest.class.getClassLoader();

    private int of(Class<?> type) {
        return of(loader, type);
    }

    private int of(ClassLoader from, Class<?> type) {
        return superTypes.of(from, ClassFiles.internalName(type), ClassFiles.of(type));
    }

    @Test
    void aServletIsFoundThroughItsSuperclassesInItsOwnNamespace() {
        assertThat(of(JakartaHello.class)).isEqualTo(WeaveTarget.named("servlet-jakarta").bit);
        assertThat(of(JavaxHello.class)).isEqualTo(WeaveTarget.named("servlet-javax").bit);
        assertThat(of(jakarta.servlet.http.HttpServlet.class)).isEqualTo(WeaveTarget.named("servlet-jakarta").bit);
    }

    @Test
    void aFilterAndExceptionMappersAreFoundThroughTheirInterfaces() {
        assertThat(of(JakartaPassFilter.class)).isEqualTo(WeaveTarget.named("servlet-jakarta").bit);
        assertThat(of(CatchAllMapper.class)).isEqualTo(WeaveTarget.named("mapper-jakarta").bit);
        assertThat(of(JavaxCatchAllMapper.class)).isEqualTo(WeaveTarget.named("mapper-javax").bit);
    }

    @Test
    void interfacesAndOtherClassesMatchNothing() {
        assertThat(of(jakarta.servlet.Filter.class)).isZero();
        assertThat(of(jakarta.servlet.http.HttpServletRequest.class)).isZero();
        assertThat(of(FakeHttp.class)).isZero();
        assertThat(of(SuperTypesTest.class)).isZero();
    }

    @Test
    void superTypesTheLoaderCannotReadContributeNothing() throws Exception {
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThat(of(empty, JakartaHello.class)).isZero();
            assertThat(of(empty, JakartaPassFilter.class)).isEqualTo(WeaveTarget.named("servlet-jakarta").bit);
        }
    }
}
