package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

class JaxrsPathParamsTest {

    private final TypePool pool = TypePool.Default.of(getClass().getClassLoader());

    @Test
    void theAnnotatedParameterOfTheMethodItself() {
        MethodDescription create = method("jaxrstest.DirectResource", "create");
        assertThat(JaxrsPathParams.parameterIndex(create, JaxrsNamespace.JAKARTA, "id")).isEqualTo(1);
        assertThat(JaxrsPathParams.parameterIndex(create, JaxrsNamespace.JAKARTA, "dry")).isEqualTo(-1);
        assertThat(JaxrsPathParams.parameterIndex(create, JaxrsNamespace.JAKARTA, "other")).isEqualTo(-1);
    }

    @Test
    void inheritedFromTheImplementedInterfaceOrTheOverriddenSuperclassMethod() {
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.OrderResource", "get"), JaxrsNamespace.JAKARTA,
                "orderId")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.AccountResource", "update"),
                JaxrsNamespace.JAKARTA, "account")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.GenericResource", "find"),
                JaxrsNamespace.JAKARTA, "key")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.NameCrudResource", "get"),
                JaxrsNamespace.JAKARTA, "id")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.JavaxUserResource", "remove"),
                JaxrsNamespace.JAVAX, "user")).isEqualTo(0);
    }

    @Test
    void aMethodWithAnnotationsOfItsOwnDoesNotInherit() {
        // OrderResource.cancel carries @Produces, so OrderApi.cancel's @PathParam does not apply to it
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.OrderResource", "cancel"), JaxrsNamespace.JAKARTA,
                "orderId")).isEqualTo(-1);
    }

    @Test
    void theOtherNamespaceOrNoMethodFindsNothing() {
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.JavaxResource", "get"), JaxrsNamespace.JAKARTA,
                "user")).isEqualTo(-1);
        assertThat(JaxrsPathParams.parameterIndex(method("jaxrstest.JavaxResource", "get"), JaxrsNamespace.JAVAX,
                "user")).isEqualTo(0);
        assertThat(JaxrsPathParams.parameterIndex(null, JaxrsNamespace.JAVAX, "user")).isEqualTo(-1);
    }

    private MethodDescription method(String type, String name) {
        return pool.describe(type).resolve().getDeclaredMethods()
                .filter(ElementMatchers.named(name).and(ElementMatchers.not(ElementMatchers.isBridge()))).getOnly();
    }
}
