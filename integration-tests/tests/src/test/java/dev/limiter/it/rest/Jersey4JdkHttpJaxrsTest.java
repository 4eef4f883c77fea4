package dev.limiter.it.rest;

import dev.limiter.it.harness.TestApp;

/**
 * The JAX-RS contract on Jersey 4 on the JDK HTTP server: no servlet container, so rules key on global, arg:N
 * and path-param only.
 */
class Jersey4JdkHttpJaxrsTest extends AbstractJaxrsServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JERSEY4_JDK_HTTP;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // a virtual-thread-per-task executor
    }
}
