package dev.limiter.it.wait;

import dev.limiter.it.harness.TestApp;

/** Waiting HTTP requests on Tomcat 11 (virtual request threads on Java 21+, a platform pool on 17). */
class Tomcat11HttpWaitTest extends AbstractHttpWaitTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }
}
