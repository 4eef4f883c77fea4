package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.stream.Collectors;
import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import org.junit.jupiter.api.Test;

/**
 * Matches the fixtures in {@code jaxrstest} through {@link ClassShapes} (class files read as resources, nothing
 * loaded), as the agent does. Fixture classes are named by string so this test never loads them.
 */
class JaxrsResourceMethodsTest {

    private final ClassShapes shapes = new ClassShapes(getClass().getClassLoader());

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
        assertThat(namespaceOf("jaxrstest.OrderResource")).isEqualTo(JaxrsNamespace.JAKARTA);
    }

    @Test
    void annotationsAndPathInheritedFromAnAbstractSuperclass() {
        assertThat(matched("jaxrstest.AccountResource", JaxrsNamespace.JAKARTA)).containsExactly("update");
        // the abstract declaration is not woven; the concrete one in the superclass is
        assertThat(matched("jaxrstest.BaseResource", JaxrsNamespace.JAKARTA)).containsExactly("describe");
    }

    @Test
    void genericOverridesMatchOnceAndTheirBridgesNot() {
        ClassShape type = shapes.find("jaxrstest.GenericResource");
        assertThat(type.methods().stream().filter(MethodShape::isBridge)).hasSize(2);
        assertThat(matched("jaxrstest.GenericResource", JaxrsNamespace.JAKARTA)).containsExactly("find", "save");
        assertThat(matching(shapes, "jaxrstest.GenericResource", JaxrsNamespace.JAKARTA))
                .extracting(MethodShape::descriptor)
                .containsExactlyInAnyOrder("(Ljava/lang/String;)Ljava/lang/String;", "(Ljava/lang/String;)V");
    }

    @Test
    void anOverrideOfAGenericSuperclassMethodMatchesThroughTheSuperclassesGenericShape() {
        assertThat(matched("jaxrstest.NameCrudResource", JaxrsNamespace.JAKARTA)).containsExactly("get");
        assertThat(matching(shapes, "jaxrstest.NameCrudResource", JaxrsNamespace.JAKARTA))
                .extracting(MethodShape::descriptor).containsExactly("(J)Ljava/lang/String;");
    }

    @Test
    void aClassWithoutPathAnywhereIsNotAResourceClass() {
        assertThat(matched("jaxrstest.NoPathResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(matched("jaxrstest.ItemsResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(namespaceOf("jaxrstest.NoPathResource")).isNull();
        assertThat(namespaceOf("java.lang.String")).isNull();
    }

    @Test
    void javaxResourcesMatchForJavaxOnly() {
        assertThat(matched("jaxrstest.JavaxResource", JaxrsNamespace.JAVAX)).containsExactly("get");
        assertThat(matched("jaxrstest.JavaxResource", JaxrsNamespace.JAKARTA)).isEmpty();
        assertThat(matched("jaxrstest.JavaxUserResource", JaxrsNamespace.JAVAX)).containsExactly("remove");
        assertThat(matched("jaxrstest.DirectResource", JaxrsNamespace.JAVAX)).isEmpty();
        assertThat(namespaceOf("jaxrstest.JavaxUserResource")).isEqualTo(JaxrsNamespace.JAVAX);
        assertThat(namespaceOf("jaxrstest.DirectResource")).isEqualTo(JaxrsNamespace.JAKARTA);
    }

    @Test
    void withoutTheApiInThePoolNothingMatchesAndNothingThrows() throws Exception {
        try (URLClassLoader fixturesOnly = new URLClassLoader(new URL[] {codeSource(DirectResourceName.class)}, null)) {
            ClassShapes isolated = new ClassShapes(fixturesOnly);
            for (String name : List.of("jaxrstest.OrderResource", "jaxrstest.AccountResource", "jaxrstest.GenericResource")) {
                assertThat(matching(isolated, name, JaxrsNamespace.JAKARTA)).as(name).isEmpty();
                assertThat(JaxrsResourceMethods.namespaceOf(isolated.find(name), isolated)).as(name).isNull();
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
            ClassShapes isolated = new ClassShapes(hiding);
            assertThat(matching(isolated, "jaxrstest.DocumentedResource", JaxrsNamespace.JAKARTA))
                    .extracting(MethodShape::name).containsExactly("get");
            assertThat(JaxrsResourceMethods.namespaceOf(isolated.find("jaxrstest.DocumentedResource"), isolated))
                    .isEqualTo(JaxrsNamespace.JAKARTA);
        }
    }

    private List<String> matched(String typeName, JaxrsNamespace ns) {
        return matching(shapes, typeName, ns).stream().map(MethodShape::name).sorted().collect(Collectors.toList());
    }

    /** The methods of {@code typeName} that are resource methods of {@code ns}, read through {@code from}. */
    private static List<MethodShape> matching(ClassShapes from, String typeName, JaxrsNamespace ns) {
        ClassShape type = from.find(typeName);
        return type.methods().stream().filter(m -> JaxrsResourceMethods.isResourceMethod(type, m, ns, from))
                .collect(Collectors.toList());
    }

    private JaxrsNamespace namespaceOf(String typeName) {
        return JaxrsResourceMethods.namespaceOf(shapes.find(typeName), shapes);
    }

    private static URL codeSource(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    /** Only for finding the test-classes folder; loading it loads no fixture. */
    private static final class DirectResourceName {
    }
}
