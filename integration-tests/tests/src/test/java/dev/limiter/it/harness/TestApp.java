package dev.limiter.it.harness;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The test servers, each a runnable directory built by its own module under {@code integration-tests/apps}
 * ({@code target/classes} + {@code target/lib/*}). They never share a class path: Tomcat 11, Jetty 12 and
 * Jetty 9 bring incompatible servlet APIs, and the agent must cope with each as a real deployment would.
 */
public enum TestApp {
    TOMCAT11_JAKARTA("tomcat11-jakarta", "dev.limiter.it.app.tomcat.TomcatApp"),
    JETTY12_JAKARTA("jetty12-jakarta", "dev.limiter.it.app.jetty12.Jetty12App"),
    JETTY9_JAVAX("jetty9-javax", "dev.limiter.it.app.jetty9.Jetty9App"),
    TOMCAT10_JAKARTA("tomcat10-jakarta", "dev.limiter.it.app.tomcat.TomcatApp"),
    TOMCAT9_JAVAX("tomcat9-javax", "dev.limiter.it.app.tomcat.TomcatApp"),
    UNDERTOW_JAKARTA("undertow-jakarta", "dev.limiter.it.app.undertow.UndertowApp"),
    SPRING_BOOT3_WEB("spring-boot3-web", "dev.limiter.it.app.boot.BootApp");

    private final String module;
    private final String mainClass;

    TestApp(String module, String mainClass) {
        this.module = module;
        this.mainClass = mainClass;
    }

    public String mainClass() {
        return mainClass;
    }

    /** {@code classes:lib/*}, checked to exist so a missing build fails with a clear message, not a timeout. */
    public String classPath() {
        Path dir = Locations.apps().resolve(module).resolve("target");
        Path classes = dir.resolve("classes");
        Path lib = dir.resolve("lib");
        if (!Files.isDirectory(classes) || !Files.isDirectory(lib)) {
            throw new IllegalStateException("test app " + module + " is not built (" + dir
                    + " lacks classes/ or lib/): run mvn verify (lib/ is copied at package)");
        }
        return classes + File.pathSeparator + lib + File.separator + "*";
    }
}
