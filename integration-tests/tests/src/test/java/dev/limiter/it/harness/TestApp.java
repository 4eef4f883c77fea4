package dev.limiter.it.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The test servers, each a runnable directory built by its own module under {@code integration-tests/apps}
 * ({@code target/classes} + {@code target/lib/*}), or that module's Spring Boot fat jar ({@link Launch}). They
 * never share a class path: Tomcat 11, Jetty 12 and
 * Jetty 9 bring incompatible servlet APIs, and the agent must cope with each as a real deployment would.
 * Servlet servers serve the shared servlet endpoints (apps/servlets-*); JAX-RS servers serve the shared JAX-RS
 * application (apps/jaxrs-*) under {@code /rest}.
 */
public enum TestApp {
    TOMCAT11_JAKARTA("tomcat11-jakarta", "dev.limiter.it.app.tomcat.TomcatApp", Kind.SERVLET),
    JETTY12_JAKARTA("jetty12-jakarta", "dev.limiter.it.app.jetty12.Jetty12App", Kind.SERVLET),
    JETTY9_JAVAX("jetty9-javax", "dev.limiter.it.app.jetty9.Jetty9App", Kind.SERVLET),
    TOMCAT10_JAKARTA("tomcat10-jakarta", "dev.limiter.it.app.tomcat.TomcatApp", Kind.SERVLET),
    TOMCAT9_JAVAX("tomcat9-javax", "dev.limiter.it.app.tomcat.TomcatApp", Kind.SERVLET),
    UNDERTOW_JAKARTA("undertow-jakarta", "dev.limiter.it.app.undertow.UndertowApp", Kind.SERVLET),
    SPRING_BOOT3_WEB("spring-boot3-web", "dev.limiter.it.app.boot.BootApp", Kind.SERVLET),
    /** The same Boot app as {@code java -jar} on its repackaged fat jar: classes from Boot's nested-jar loader. */
    SPRING_BOOT3_FAT_JAR("spring-boot3-web", "dev.limiter.it.app.boot.BootApp", Kind.SERVLET, Launch.FAT_JAR),
    /** Tomcat 11 deploying an exploded WAR: the servlets come from {@code WEB-INF/lib} via the webapp loader. */
    TOMCAT11_WEBAPP("tomcat11-webapp", "dev.limiter.it.app.webapp.TomcatWebappApp", Kind.SERVLET),
    JERSEY3_TOMCAT10("jersey3-tomcat10", "dev.limiter.it.app.jersey.JerseyTomcatApp", Kind.JAXRS_ON_SERVLET),
    JERSEY4_TOMCAT11("jersey4-tomcat11", "dev.limiter.it.app.jersey.JerseyTomcatApp", Kind.JAXRS_ON_SERVLET),
    JERSEY2_TOMCAT9_JAVAX("jersey2-tomcat9-javax", "dev.limiter.it.app.jersey.JerseyTomcatApp",
            Kind.JAXRS_ON_SERVLET),
    RESTEASY6_UNDERTOW("resteasy6-undertow", "dev.limiter.it.app.resteasy.ResteasyUndertowApp",
            Kind.JAXRS_ON_SERVLET),
    RESTEASY7_UNDERTOW("resteasy7-undertow", "dev.limiter.it.app.resteasy.ResteasyUndertowApp",
            Kind.JAXRS_ON_SERVLET),
    JERSEY4_JDK_HTTP("jersey4-jdk-http", "dev.limiter.it.app.jdkhttp.JerseyJdkHttpApp", Kind.JAXRS_WITHOUT_SERVLET),
    /** Spring Boot 3.5 WebFlux on Reactor Netty: no servlet API at all. */
    SPRING_BOOT3_WEBFLUX("spring-boot3-webflux", "dev.limiter.it.app.webflux.WebfluxApp", Kind.WEBFLUX),
    /** The same WebFlux application built against Spring Boot 4.0 (Spring 7). */
    SPRING_BOOT4_WEBFLUX("spring-boot4-webflux", "dev.limiter.it.app.webflux.WebfluxApp", Kind.WEBFLUX),
    /** grpc-java 1.85 on grpc-netty-shaded: no servlet API, no HTTP endpoints. */
    GRPC_NETTY("grpc-netty", "dev.limiter.it.app.grpc.GrpcApp", Kind.GRPC),
    /** Quarkus REST (RESTEasy Reactive on Vert.x), JVM mode, as {@code java -jar quarkus-app/quarkus-run.jar}. */
    QUARKUS_REST("quarkus-rest", "dev.limiter.it.app.quarkus.QuarkusApp", Kind.QUARKUS, Launch.QUARKUS_JAR),
    /** Vert.x Web 5 (Vert.x core 5, Netty 4.2): a plain {@code Router} application, no Quarkus, no servlet API. */
    VERTX5_WEB("vertx5-web", "dev.limiter.it.app.vertx.Vertx5App", Kind.VERTX),
    /**
     * Helidon SE 4.5 WebServer (virtual threads, no servlet API): Java 21+, built only where the Java 25 JDK is
     * (its tests carry {@link TestJvmAtLeast}).
     */
    HELIDON4_SE("helidon4-se", "dev.limiter.it.app.helidon.HelidonApp", Kind.HELIDON),
    /** Micronaut 4.10 on its Netty HTTP server: no servlet API. */
    MICRONAUT4("micronaut4-netty", "dev.limiter.it.app.micronaut.MicronautApp", Kind.MICRONAUT);

    /** What a server serves, and whether a servlet container is in front of it. */
    public enum Kind {
        /** The shared servlet endpoints (apps/servlets-*). */
        SERVLET,
        /** The shared JAX-RS application at {@code /rest/*} through a servlet container. */
        JAXRS_ON_SERVLET,
        /** The shared JAX-RS application at {@code /rest} on a runtime with no servlet container. */
        JAXRS_WITHOUT_SERVLET,
        /** The WebFlux test application (apps/spring-boot3-webflux) on Reactor Netty. */
        WEBFLUX,
        /** The gRPC test service (apps/grpc-netty). */
        GRPC,
        /** The Quarkus REST test application (apps/quarkus-rest): resources only, no servlet API. */
        QUARKUS,
        /** A plain Vert.x Web application (apps/vertx5-web): one {@code Router}, no servlet API. */
        VERTX,
        /** The Helidon SE 4 test application (apps/helidon4-se): routing handlers, no servlet API. */
        HELIDON,
        /** The Micronaut test application (apps/micronaut4-netty) on Micronaut's Netty server. */
        MICRONAUT
    }

    /** How the JVM is given the application. */
    public enum Launch {
        /** {@code -cp classes:lib/* <main class>}. */
        CLASS_PATH,
        /** {@code -jar target/*-exec.jar}: the module's Spring Boot repackaged jar (Boot's launcher finds main). */
        FAT_JAR,
        /**
         * {@code -jar target/quarkus-app/quarkus-run.jar}: the Quarkus Maven plugin's fast-jar (its
         * {@code RunnerClassLoader} loads the application and its libraries).
         */
        QUARKUS_JAR
    }

    private final String module;
    private final String mainClass;
    private final Kind kind;
    private final Launch launch;

    TestApp(String module, String mainClass, Kind kind) {
        this(module, mainClass, kind, Launch.CLASS_PATH);
    }

    TestApp(String module, String mainClass, Kind kind, Launch launch) {
        this.module = module;
        this.mainClass = mainClass;
        this.kind = kind;
        this.launch = launch;
    }

    public Kind kind() {
        return kind;
    }

    /** The servers serving the shared servlet endpoints. */
    public static List<TestApp> servlet() {
        return Arrays.stream(values()).filter(app -> app.kind == Kind.SERVLET).toList();
    }

    /** The servers serving the shared JAX-RS application, with or without a servlet container. */
    public static List<TestApp> jaxrs() {
        return Arrays.stream(values())
                .filter(app -> app.kind == Kind.JAXRS_ON_SERVLET || app.kind == Kind.JAXRS_WITHOUT_SERVLET).toList();
    }

    public String mainClass() {
        return mainClass;
    }

    /**
     * What follows the JVM options on the command line, before the application's arguments:
     * {@code -cp <classPath()> <mainClass()>}, or {@code -jar <fat jar>}.
     */
    public List<String> launchArguments() {
        return switch (launch) {
            case FAT_JAR -> List.of("-jar", fatJar().toString());
            case QUARKUS_JAR -> List.of("-jar", quarkusJar().toString());
            case CLASS_PATH -> List.of("-cp", classPath(), mainClass);
        };
    }

    /** The module's {@code target/quarkus-app/quarkus-run.jar}, checked to exist like {@link #classPath()}. */
    private Path quarkusJar() {
        Path jar = Locations.apps().resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("test app " + module + " is not built (" + jar
                    + " is missing: quarkus-maven-plugin build at package)");
        }
        return jar;
    }

    /** The module's one {@code target/*-exec.jar}, checked to exist like {@link #classPath()}. */
    private Path fatJar() {
        Path dir = Locations.apps().resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jars = files.filter(file -> file.getFileName().toString().endsWith("-exec.jar")).toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("test app " + module + " needs exactly one fat jar " + dir
                        + "/*-exec.jar (spring-boot-maven-plugin repackage at package), found " + jars);
            }
            return jars.get(0);
        } catch (IOException e) {
            throw new IllegalStateException("test app " + module + " is not built (" + dir + ")", e);
        }
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
