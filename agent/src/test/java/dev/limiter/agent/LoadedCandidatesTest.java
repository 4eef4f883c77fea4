package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import weavingtest.JavaxHello;

/** Only classes outside the ignored packages reach Byte Buddy's retransformation scan, and none means no scan. */
class LoadedCandidatesTest {

    @Test
    void onlyIgnoredClassesLoadedMeansNothingToScan() {
        Iterable<Iterable<Class<?>>> batches = LoadedCandidates.INSTANCE.resolve(loaded(String.class,
                Weaver.class, int.class, String[].class, net.bytebuddy.ByteBuddy.class));

        assertThat(batches).isEmpty();
    }

    @Test
    void applicationClassesAreScannedAndIgnoredOnesAreNot() {
        Iterable<Iterable<Class<?>>> batches = LoadedCandidates.INSTANCE.resolve(loaded(String.class,
                JavaxHello.class, Weaver.class));

        List<Class<?>> scanned = new ArrayList<>();
        batches.forEach(batch -> batch.forEach(scanned::add));
        assertThat(scanned).containsExactly(JavaxHello.class);
    }

    @Test
    void ignoredPrefixesCoverTheJdkAndOurOwnPackagesButNotApplicationsUnderDevLimiter() {
        assertThat(IgnoredTypes.ignored("java.lang.String")).isTrue();
        assertThat(IgnoredTypes.ignored("dev.limiter.agent.Weaver")).isTrue();
        assertThat(IgnoredTypes.ignored("dev.limiter.demo.DemoServlet")).isFalse();
        assertThat(IgnoredTypes.ignored("javax.servlet.http.HttpServlet")).isFalse();
    }

    private static Instrumentation loaded(Class<?>... classes) {
        return (Instrumentation) Proxy.newProxyInstance(LoadedCandidatesTest.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getAllLoadedClasses")) {
                        return classes.clone();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
