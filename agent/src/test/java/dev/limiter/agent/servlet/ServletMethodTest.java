package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.servlet.shape.AsyncContext;
import dev.limiter.agent.servlet.shape.Request;
import dev.limiter.agent.servlet.shape.Response;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What is written out by hand next to the {@link ServletMethod} table agrees with it: {@link ServletCalls}'
 * methods, {@link ConstantServletCalls}' call sites (each calls its own entry's handle with that entry's exact
 * type) and the {@code shape} miniature; and the table binds in both real servlet APIs.
 */
class ServletMethodTest {

    @Test
    void servletCallsHasOneMethodPerEntryOfItsErasedType() throws NoSuchMethodException {
        for (ServletMethod entry : ServletMethod.values()) {
            Method call = ServletCalls.class.getMethod(entry.methodName, entry.erased.parameterArray());
            assertThat(call.getReturnType()).as(entry.name()).isEqualTo(entry.erased.returnType());
        }
        assertThat(ServletCalls.class.getDeclaredMethods()).hasSameSizeAs(ServletMethod.values());
    }

    @Test
    void eachConstantCallInvokesItsOwnEntrysHandleWithTheExactType() throws Throwable {
        List<ServletMethod> invoked = new ArrayList<>();
        MethodHandle[] handles = new MethodHandle[ServletMethod.values().length];
        for (ServletMethod entry : ServletMethod.values()) {
            handles[entry.ordinal()] = recorder(entry, invoked);
        }
        ServletCalls calls = ServletApi.constantCalls(handles);

        for (ServletMethod entry : ServletMethod.values()) {
            invoked.clear();
            // a call site of another type than the handle's throws WrongMethodTypeException here
            call(calls, entry);
            assertThat(invoked).as(entry.methodName).containsExactly(entry);
        }
    }

    @Test
    void withoutTheServlet30HandlesThereIsNoDispatcherTypeAndNoAsync() throws Throwable {
        MethodHandle[] handles = new MethodHandle[ServletMethod.values().length];
        for (ServletMethod entry : ServletMethod.values()) {
            if (entry.since == ServletMethod.Since.SERVLET_2_5) {
                handles[entry.ordinal()] = recorder(entry, new ArrayList<>());
            }
        }
        ServletCalls calls = ServletApi.constantCalls(handles);

        assertThat(calls.getDispatcherType(new Object())).isNull();
        assertThat(calls.isAsyncStarted(new Object())).isFalse();
    }

    @Test
    void theShapeDeclaresExactlyTheTablesMethodsWithTheirSignatures() throws NoSuchMethodException {
        for (ServletMethod entry : ServletMethod.values()) {
            Method method = entry.owner.getMethod(entry.methodName, entry.parameters);
            assertThat(method.getReturnType()).as(entry.name()).isEqualTo(entry.returns);
        }
        int declared = Request.class.getDeclaredMethods().length + Response.class.getDeclaredMethods().length
                + AsyncContext.class.getDeclaredMethods().length;
        assertThat(declared).isEqualTo(ServletMethod.values().length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"javax.servlet", "jakarta.servlet"})
    void everyEntryBindsInTheRealApi(String pkg) throws ReflectiveOperationException {
        assertEveryEntryBinds(Class.forName(pkg + ".http.HttpServletRequest"),
                Class.forName(pkg + ".http.HttpServletResponse"));
    }

    @Test
    void everyEntryBindsInTheShapeTheWarmUpUses() throws ReflectiveOperationException {
        assertEveryEntryBinds(Request.class, Response.class);
    }

    private static void assertEveryEntryBinds(Class<?> request, Class<?> response)
            throws ReflectiveOperationException {
        for (ServletMethod entry : ServletMethod.values()) {
            assertThat(entry.bind(request, response).type()).as(entry.name()).isEqualTo(entry.erased);
        }
    }

    /** A handle of {@code entry}'s erased type that notes the call and returns the type's zero value. */
    private static MethodHandle recorder(ServletMethod entry, List<ServletMethod> invoked)
            throws ReflectiveOperationException {
        MethodHandle add = MethodHandles.lookup().findVirtual(List.class, "add",
                MethodType.methodType(boolean.class, Object.class));
        MethodHandle note = MethodHandles.dropReturn(MethodHandles.insertArguments(add, 0, invoked, entry));
        return MethodHandles.foldArguments(MethodHandles.empty(entry.erased), note);
    }

    /** Calls {@code entry}'s {@link ServletCalls} method with placeholder arguments. */
    private static void call(ServletCalls calls, ServletMethod entry) throws Throwable {
        Method method = ServletCalls.class.getMethod(entry.methodName, entry.erased.parameterArray());
        Object[] arguments = Arrays.stream(entry.erased.parameterArray())
                .map(type -> type == int.class ? (Object) 0 : null)
                .toArray();
        try {
            method.invoke(calls, arguments);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
