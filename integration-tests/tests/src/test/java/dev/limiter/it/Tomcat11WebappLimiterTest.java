package dev.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.TestApp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract on Tomcat 11 deploying an exploded WAR: the servlets and the filter are named in
 * {@code WEB-INF/web.xml}, live in {@code WEB-INF/lib}, and are loaded by Tomcat's webapp class loader (child-first,
 * one per context); the launcher's class path has Tomcat only. The woven code must reach the bootstrap bridge from
 * there.
 */
class Tomcat11WebappLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.TOMCAT11_WEBAPP;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // Tomcat 11: the connector's useVirtualThreads
    }

    @Test
    void theServletsAreLoadedByTheWebappClassLoader() {
        String loadedBy = server().awaitOutput("(?m)^SERVLETS LOADED BY \\S+", Duration.ofSeconds(10));
        assertThat(loadedBy).isEqualTo("SERVLETS LOADED BY org.apache.catalina.loader.ParallelWebappClassLoader");
    }
}
