package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.stream.Collectors;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/**
 * Matches the fixtures in {@code jaxrstest} through a {@link TypePool} (class files read as resources, nothing
 * loaded), as the agent does with {@code DescriptionStrategy.POOL_ONLY}. Fixture classes are named by string so
 * this test never loads them.
 */
class JaxrsResourceMethodsTest {

    private final TypePool pool = TypePool.Default.of(getClass().getClassLoader());

    @Test
    void directlyAnnotatedResourceMethodsIncludingACustomHttpMethod() {
        assertThat(matched("jaxrstest.DirectResource", JaxrsNamespace.JAKARTA))
                .containsExactly("create", "list", "purge");
    }

    @Test
    void locatorsStaticPackagePrivateAndUnannotatedMethodsAreNotResourceMethods() {
        List<String> matched = matched("jaxrstest.DirectResource", JaxrsNamespace.JAKARTA);
        assertThat(matched).doesNotContain("items", "notAResourceMethod", "packagePrivate", "helper", "plain");
    }

    @Test
    void annotationsAndPathInheritedFromAnInterface() {
        // cancel() has an annotation of its own (@Produces), so by the spec it inherits nothing: no HTTP method.
        assertThat(matched("jaxrstest.OrderResource", JaxrsNamespace.JAKARTA)).containsExactly("get");
        assertThat(JaxrsResourceMethods.namespaceOf(type("jaxrstest.OrderResource"))).isEqualTo(JaxrsNamespace.JAKARTA);
    }

    @Test
    void annotationsAndPathInheritedFromAnAbstractSuperclass() {
        assertThat(matched("jaxrstest.AccountResource", JaxrsNamespace.JAKARTA)).containsExactly("update");
        // the abstract declaration is not woven; the concrete one in the superclass is
        assertThat(matched("jaxrstest.BaseResource", JaxrsNamespace.JAKARTA)).containsExactly("describe");
    }

    @Test
    void genericOverridesMatchOnceAndTheirBridgesNot() {
        TypeDescription type = type("jaxrstest.GenericResource");
        assertThat(type.getDeclaredMethods().filter(m -> m.isBridge())).hasSize(2);
        assertThat(matched("jaxrstest.GenericResource", JaxrsNamespace.JAKARTA)).containsExactly("find", "save");
        assertThat(type.getDeclaredMethods().filter(JaxrsResourceMethods.matcher(JaxrsNamespace.JAKARTA)))
                .allSatisfy(m -> assertThat(m.getReturnType().asErasure().getName())
                        .isIn("java.lang.String", "void"));
    }

    @Test
    void anOverrideOfAGenericSuperclassMethodMatchesThroughTheSuperclassesGenericShape() {
        assertThat(matched("jaxrstest.NameCrudResource", JaxrsNamespace.JAKARTA)).containsExactly("get");
        TypeDescription type = type("jaxrstest.NameCrudResource");
        assertThat(type.getDeclaredMethods().filter(JaxrsResourceMethods.matcher(JaxrsNamespace.JAKARTA)).getOnly()
                .getReturnType().asErasure().getName()).isEqualTo("java.lang.String");
    }

    @Test
    void aClassWithoutPathAnywhereIsNotAResourceClass() {
        assertThat(matched("jaxrstest.NoPathResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(matched("jaxrstest.ItemsResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(JaxrsResourceMethods.namespaceOf(type("jaxrstest.NoPathResource"))).isNull();
        assertThat(JaxrsResourceMethods.namespaceOf(type("java.lang.String"))).isNull();
    }

    @Test
    void javaxResourcesMatchForJavaxOnly() {
        assertThat(matched("jaxrstest.JavaxResource", JaxrsNamespace.JAVAX)).containsExactly("get");
        assertThat(matched("jaxrstest.JavaxResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(matched("jaxrstest.JavaxUserResource", JaxrsNamespace.JAVAX)).containsExactly("remove");
        assertThat(matched("jaxrstest.DirectResource", JaxrsNamespace.JAVAX)).isEmpty();
        assertThat(JaxrsResourceMethods.namespaceOf(type("jaxrstest.JavaxUserResource"))).isEqualTo(JaxrsNamespace.JAVAX);
        assertThat(JaxrsResourceMethods.namespaceOf(type("jaxrstest.DirectResource"))).isEqualTo(JaxrsNamespace.JAKARTA);
    }

    @Test
    void withoutTheApiInThePoolNothingMatchesAndNothingThrows() throws Exception {
        try (URLClassLoader fixturesOnly = new URLClassLoader(new URL[] {codeSource(DirectResourceName.class)}, null)) {
            TypePool isolated = TypePool.Default.of(fixturesOnly);
            for (String name : List.of("jaxrstest.OrderResource", "jaxrstest.AccountResource", "jaxrstest.GenericResource")) {
                TypeDescription type = isolated.describe(name).resolve();
                assertThat(type.getDeclaredMethods().filter(JaxrsResourceMethods.matcher(JaxrsNamespace.JAKARTA)))
                        .as(name).isEmpty();
                assertThat(JaxrsResourceMethods.namespaceOf(type)).as(name).isNull();
            }
        }
    }

    @Test
    void anAnnotationWhoseClassIsMissingDoesNotHideAResourceMethod() throws Exception {
        URL[] path = {codeSource(DirectResourceName.class), codeSource(jakarta.ws.rs.GET.class)};
        try (URLClassLoader hiding = new URLClassLoader(path, ClassLoader.getPlatformClassLoader()) {
            @Override
            public URL getResource(String name) {
                return name.equals("jaxrstest/MissingAtRuntime.class") ? null : super.getResource(name);
            }
        }) {
            TypePool isolated = TypePool.Default.of(hiding);
            TypeDescription type = isolated.describe("jaxrstest.DocumentedResource").resolve();
            assertThat(type.getDeclaredMethods().filter(JaxrsResourceMethods.matcher(JaxrsNamespace.JAKARTA)))
                    .extracting(MethodDescription::getName).containsExactly("get");
            assertThat(JaxrsResourceMethods.namespaceOf(type)).isEqualTo(JaxrsNamespace.JAKARTA);
        }
    }

    private List<String> matched(String typeName, JaxrsNamespace ns) {
        return type(typeName).getDeclaredMethods().filter(JaxrsResourceMethods.matcher(ns)).stream()
                .map(MethodDescription::getName).sorted().collect(Collectors.toList());
    }

    private static URL codeSource(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    /** Only for finding the test-classes folder; loading it loads no fixture. */
    private static final class DirectResourceName {
    }

    private TypeDescription type(String name) {
        return pool.describe(name).resolve();
    }
}
