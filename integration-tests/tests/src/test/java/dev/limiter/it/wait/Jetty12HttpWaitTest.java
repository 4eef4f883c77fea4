package dev.limiter.it.wait;

import dev.limiter.it.harness.TestApp;

/** Waiting HTTP requests on Jetty 12 (servlet work on virtual threads on Java 21+, its thread pool on 17). */
class Jetty12HttpWaitTest extends AbstractHttpWaitTest {

    @Override
    TestApp app() {
        return TestApp.JETTY12_JAKARTA;
    }
}
