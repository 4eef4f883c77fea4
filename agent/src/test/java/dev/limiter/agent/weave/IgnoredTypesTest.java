package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IgnoredTypesTest {

    @ParameterizedTest
    @ValueSource(strings = {"java.lang.String", "javax.management.MBeanServer", "jdk.internal.misc.Unsafe",
            "sun.nio.ch.Net", "com.sun.net.httpserver.HttpServer", "net.bytebuddy.ByteBuddy",
            "dev.limiter.agent.startup.Startup", "dev.limiter.bootstrap.LimiterBridge", "dev.limiter.api.X",
            "dev.limiter.core.Bucket", "dev.limiter.rules.RuleSet", "dev.limiter.shaded.redis.clients.jedis.Jedis"})
    void neverWeavesTheJdkByteBuddyOrTheAgent(String name) {
        assertThat(IgnoredTypes.ignored(name)).isTrue();
        assertThat(IgnoredTypes.ignoredInternalName(name.replace('.', '/'))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"javax.servlet.http.HttpServlet", "org.eclipse.jetty.servlet.DefaultServlet",
            "com.example.Api", "dev.limiter.demo.DemoServlet", "dev.limiter.it.app.ApiServlet", "sunny.Day",
            "Default", "éclair.Servlet", "", "j"})
    void weavesEverythingElse(String name) {
        assertThat(IgnoredTypes.ignored(name)).isFalse();
        assertThat(IgnoredTypes.ignoredInternalName(name.replace('.', '/'))).isFalse();
    }
}
