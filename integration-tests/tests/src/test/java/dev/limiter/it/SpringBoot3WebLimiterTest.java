package dev.limiter.it;

import dev.limiter.it.harness.TestApp;

/**
 * The HTTP contract on Spring Boot 3 web (embedded Tomcat 10.1): {@code /api/...} is a {@code @RestController}
 * reached through the {@code DispatcherServlet}, the other endpoints are the shared servlets.
 */
class SpringBoot3WebLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.SPRING_BOOT3_WEB;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // spring.threads.virtual.enabled
    }
}
