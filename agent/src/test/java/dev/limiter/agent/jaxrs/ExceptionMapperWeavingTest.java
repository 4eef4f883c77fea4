package dev.limiter.agent.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.testing.LogCapture;
import dev.limiter.agent.testing.MapperOnlyDelegate;
import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import jaxrstest.CatchAllMapper;
import jaxrstest.WebAppExceptionMapper;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weaves application {@code ExceptionMapper}s in this JVM with the agent's transformer (Byte Buddy self-attach) and shows that a limiter rejection passes through them unchanged while every other exception still reaches
 * the application's mapper. The jakarta mappers run against Jersey 3; the javax one inside a loader holding a real
 * Jersey 2 runtime ({@link JavaxRuntime}).
 */
class ExceptionMapperWeavingTest {

    private static Instrumentation inst;
    private static final String LOG = "dev.limiter.test.mappers";
    private static LimiterTransformer transformer;
    private static final List<String> WOVEN = new CopyOnWriteArrayList<>();
    /** Failed transformations: the transformer logs them through its throttled log. */
    private static LogCapture errors;

    private final RuleSet rules = JaxrsRejectionTest.parse("""
            version: 1
            rules:
              - id: reports
                match: { jaxrs: { class: 'com.acme.ReportResource' } }
                limit: 1
                window: 1s
            """);

    @BeforeAll
    static void weave(@TempDir Path dir) throws Exception {
        inst = ByteBuddyAgent.install();
        errors = LogCapture.on(Logger.getLogger(LOG));
        Path empty = Files.writeString(dir.resolve("rules.yml"), "version: 1\nrules: []\n");
        RuleSetHolder holder = RuleSetHolder.open(empty);
        transformer = LimiterTransformer.forRules(holder, new ThrottledLog(LOG, 0), WOVEN::add).installOn(inst);
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        errors.close();
    }

    @BeforeEach
    void installDelegate() {
        LimiterBridge.installMethods(new MapperOnlyDelegate(JaxrsRejection::responseOf));
    }

    @AfterEach
    void uninstallDelegate() {
        LimiterBridge.installMethods(null);
        assertThat(errors.records).isEmpty();
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
