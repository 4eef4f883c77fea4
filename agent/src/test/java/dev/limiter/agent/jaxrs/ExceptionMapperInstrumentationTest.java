package dev.limiter.agent.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;
import dev.limiter.rules.RuleSet;
import jaxrstest.CatchAllMapper;
import jaxrstest.WebAppExceptionMapper;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Weaves application {@code ExceptionMapper}s in this JVM (Byte Buddy self-attach, pool-only descriptions as in the
 * agent) and shows that a limiter rejection passes through them unchanged while every other exception still reaches
 * the application's mapper. The jakarta mappers run against Jersey 3; the javax one inside a loader holding a real
 * Jersey 2 runtime ({@link JavaxRuntime}).
 */
class ExceptionMapperInstrumentationTest {

    private static Instrumentation inst;
    private static ResettableClassFileTransformer transformer;
    private static final List<String> WOVEN = new CopyOnWriteArrayList<>();
    private static final List<Throwable> ERRORS = new CopyOnWriteArrayList<>();

    private final RuleSet rules = JaxrsRejectionTest.parse("""
            version: 1
            rules:
              - id: reports
                match: { jaxrs: { class: 'com.acme.ReportResource' } }
                limit: 1
                window: 1s
            """);

    @BeforeAll
    static void weave() {
        inst = ByteBuddyAgent.install();
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                            boolean loaded, DynamicType dynamicType) {
                        WOVEN.add(type.getName());
                    }

                    @Override
                    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable throwable) {
                        ERRORS.add(throwable);
                    }
                })
                .ignore(not(nameStartsWith("jaxrstest.")));
        transformer = ExceptionMapperInstrumentation.apply(builder, ExceptionMapperAdvice.class.getClassLoader())
                .installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }

    @BeforeEach
    void installDelegate() {
        LimiterBridge.installMethods(new MethodDelegate() {
            @Override
            public Object onMethodEnter(int site, Object keyArgument) {
                return null;
            }

            @Override
            public void onMethodExit(int site, Object token) {
            }

            @Override
            public Object rejectionResponse(Object exception) {
                return JaxrsRejection.responseOf(exception);
            }
        });
    }

    @AfterEach
    void uninstallDelegate() {
        LimiterBridge.installMethods(null);
        assertThat(ERRORS).isEmpty();
    }

    @Test
    void aCatchAllMapperReturnsOurResponseForOurRejectionWithoutRunning() {
        CatchAllMapper mapper = new CatchAllMapper();
        Throwable rejection = rejection();
        Response response = mapper.toResponse(rejection);
        assertThat(response).isSameAs(((WebApplicationException) rejection).getResponse());
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(mapper.calls).hasValue(0);
        assertThat(WOVEN).contains("jaxrstest.CatchAllMapper");
    }

    @Test
    void everyOtherExceptionStillReachesTheApplicationsMapper() {
        CatchAllMapper mapper = new CatchAllMapper();
        rejection();
        assertThat(mapper.toResponse(new IllegalStateException("boom")).getStatus()).isEqualTo(500);
        WebApplicationException own = new WebApplicationException(Response.status(429).entity("app's own").build());
        assertThat(mapper.toResponse(own).getEntity()).isEqualTo("mapped WebApplicationException");
        assertThat(mapper.calls).hasValue(2);
    }

    @Test
    void aTypedMapperCalledThroughTheInterfaceIsWovenOnceInItsRealMethod() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        ExceptionMapper<Throwable> mapper = (ExceptionMapper) new WebAppExceptionMapper();
        Throwable rejection = rejection();
        assertThat(mapper.toResponse(rejection).getStatus()).isEqualTo(429);
        assertThat(((WebAppExceptionMapper) (Object) mapper).calls).hasValue(0);
        assertThat(mapper.toResponse(new WebApplicationException(404)).getStatus()).isEqualTo(500);
        assertThat(((WebAppExceptionMapper) (Object) mapper).calls).hasValue(1);
    }

    @Test
    void withoutAnInstalledAgentTheMapperRunsAsWritten() {
        LimiterBridge.installMethods(null);
        CatchAllMapper mapper = new CatchAllMapper();
        assertThat(mapper.toResponse(rejection()).getStatus()).isEqualTo(500);
        assertThat(mapper.calls).hasValue(1);
    }

    @Test
    void aJavaxMapperNextToAJerseyTwoRuntimePassesOurRejectionThrough() throws Exception {
        try (JavaxRuntime webapp = JavaxRuntime.createOrNull(getClass().getClassLoader())) {
            assumeTrue(webapp != null, "the build provides no Jersey 2 runtime (system property "
                    + JavaxRuntime.PROPERTY + ")");
            Class<?> mapperClass = Class.forName("jaxrstest.JavaxCatchAllMapper", true, webapp);
            assertThat(mapperClass.getClassLoader()).isSameAs(webapp);
            Object mapper = mapperClass.getConstructor().newInstance();
            Method toResponse = mapperClass.getMethod("toResponse", Throwable.class);

            Throwable rejection = JaxrsRejection.create(webapp, JaxrsNamespace.JAVAX, rules.response(),
                    rules.rule("reports"), JaxrsRejectionTest.rejectedOutcome());
            assertThat(rejection.getClass().getName()).isEqualTo("javax.ws.rs.WebApplicationException");
            Object response = toResponse.invoke(mapper, rejection);
            assertThat(response).isSameAs(rejection.getClass().getMethod("getResponse").invoke(rejection));
            assertThat(response.getClass().getMethod("getStatus").invoke(response)).isEqualTo(429);
            assertThat(mapperClass.getField("calls").getInt(mapper)).isZero();

            Object mapped = toResponse.invoke(mapper, new IllegalArgumentException());
            assertThat(mapped.getClass().getMethod("getStatus").invoke(mapped)).isEqualTo(500);
            assertThat(mapperClass.getField("calls").getInt(mapper)).isEqualTo(1);
            assertThat(WOVEN).contains("jaxrstest.JavaxCatchAllMapper");
        }
    }

    private Throwable rejection() {
        return JaxrsRejection.create(getClass().getClassLoader(), JaxrsNamespace.JAKARTA, rules.response(),
                rules.rule("reports"), JaxrsRejectionTest.rejectedOutcome());
    }
}
