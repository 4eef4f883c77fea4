package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import org.junit.jupiter.api.Test;

class JaxrsPathParamsTest {

    private final ClassShapes shapes = new ClassShapes(getClass().getClassLoader());

    @Test
    void theAnnotatedParameterOfTheMethodItself() {
        assertThat(index("jaxrstest.DirectResource", "create", JaxrsNamespace.JAKARTA, "id")).isEqualTo(1);
        assertThat(index("jaxrstest.DirectResource", "create", JaxrsNamespace.JAKARTA, "dry")).isEqualTo(-1);
        assertThat(index("jaxrstest.DirectResource", "create", JaxrsNamespace.JAKARTA, "other")).isEqualTo(-1);
    }

    @Test
    void inheritedFromTheImplementedInterfaceOrTheOverriddenSuperclassMethod() {
        assertThat(index("jaxrstest.OrderResource", "get", JaxrsNamespace.JAKARTA,
                "orderId")).isEqualTo(0);
        assertThat(index("jaxrstest.AccountResource", "update", JaxrsNamespace.JAKARTA, "account")).isEqualTo(0);
        assertThat(index("jaxrstest.GenericResource", "find", JaxrsNamespace.JAKARTA, "key")).isEqualTo(0);
        assertThat(index("jaxrstest.NameCrudResource", "get", JaxrsNamespace.JAKARTA, "id")).isEqualTo(0);
        assertThat(index("jaxrstest.JavaxUserResource", "remove", JaxrsNamespace.JAVAX, "user")).isEqualTo(0);
    }

    @Test
    void aMethodWithAnnotationsOfItsOwnDoesNotInherit() {
        // OrderResource.cancel carries @Produces, so OrderApi.cancel's @PathParam does not apply to it
        assertThat(index("jaxrstest.OrderResource", "cancel", JaxrsNamespace.JAKARTA,
                "orderId")).isEqualTo(-1);
    }

    @Test
    void theOtherNamespaceOrNoMethodFindsNothing() {
        assertThat(index("jaxrstest.JavaxResource", "get", JaxrsNamespace.JAKARTA,
                "user")).isEqualTo(-1);
        assertThat(index("jaxrstest.JavaxResource", "get", JaxrsNamespace.JAVAX,
                "user")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(null, null, JaxrsNamespace.JAVAX, "user", shapes)).isEqualTo(-1);
    }

    /** The path-param index of the one non-bridge method {@code method} of class {@code type}. */
    private int index(String type, String method, JaxrsNamespace ns, String name) {
        ClassShape shape = shapes.find(type);
        MethodShape only = shape.methods().stream().filter(m -> m.name().equals(method) && !m.isBridge())
                .reduce((a, b) -> {
                    throw new AssertionError("two methods " + method);
                }).orElseThrow();
        return JaxrsPathParams.parameterIndex(shape, only, ns, name, shapes);
    }
}
