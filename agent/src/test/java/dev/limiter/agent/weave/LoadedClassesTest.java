package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import java.lang.instrument.Instrumentation;
import java.util.List;
import jaxrstest.CatchAllMapper;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.Test;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;
import weavingtest.JavaxHello;

/**
 * The loaded classes a late attach retransforms, judged by reflection on the real loaded classes of this JVM
 * (selection only: no transformer is installed here).
 */
class LoadedClassesTest {

    @Test
    void loadedServletsAndFiltersAreSelectedAndNothingElse() {
        Instrumentation inst = ByteBuddyAgent.install();
        Class<?>[] loaded = {JakartaHello.class, JavaxHello.class, JakartaPassFilter.class, FakeHttp.class,
            CatchAllMapper.class};
        assertThat(loaded).hasSize(5);
        LimiterTransformer servletsOnly = LimiterTransformer.servletsOnly(new ThrottledLog("dev.limiter.test", 0),
                name -> { });
        List<Class<?>> selected = LoadedClasses.select(inst, servletsOnly);
        assertThat(selected).contains(JakartaHello.class, JavaxHello.class, JakartaPassFilter.class,
                jakarta.servlet.http.HttpServlet.class);
        assertThat(selected).doesNotContain(FakeHttp.class, CatchAllMapper.class, String.class,
                jakarta.servlet.Servlet.class, LoadedClassesTest.class);
    }

    @Test
    void superTypesAreFoundThroughTheLoadedHierarchy() {
        assertThat(LoadedClasses.targetsOf(JakartaHello.class)).isEqualTo(WeaveTarget.named("servlet-jakarta").bit);
        assertThat(LoadedClasses.targetsOf(JavaxHello.class)).isEqualTo(WeaveTarget.named("servlet-javax").bit);
        assertThat(LoadedClasses.targetsOf(CatchAllMapper.class)).isEqualTo(WeaveTarget.named("mapper-jakarta").bit);
        assertThat(LoadedClasses.targetsOf(FakeHttp.class)).isZero();
    }
}
