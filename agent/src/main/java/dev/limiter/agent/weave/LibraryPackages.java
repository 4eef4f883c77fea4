package dev.limiter.agent.weave;

/**
 * The packages of frameworks and libraries whose classes are not looked at for {@code @Limit}: code there is
 * never the application's own, so it never carries the annotation, and it is most of what a server loads (of the
 * ~5 000 classes a Spring Boot WebFlux application loads before its first response, all but its own few are
 * Spring's, Reactor's, Netty's, Jackson's and Logback's). Skipping them spares one walk of the constant pool
 * per class on the loading threads. Servlets, filters and mappers in these packages are still woven, and a
 * {@code method:} or {@code jaxrs:} rule still reaches any class here: only the annotation scan passes them over.
 *
 * <p>Like the ignore lists of the OpenTelemetry agent, this is a list of whole libraries; the
 * JDK's packages are passed over for everything already ({@link IgnoredTypes}). docs/annotations.md lists them.
 */
public final class LibraryPackages {

    /** Internal-name prefixes ({@code org/springframework/}), grouped by first letter. */
    static final String[] PREFIXES = {
        "org/springframework/", "org/apache/", "org/eclipse/", "org/jboss/", "org/hibernate/", "org/glassfish/",
        "org/slf4j/", "org/yaml/", "org/aspectj/", "org/objectweb/", "org/reactivestreams/", "org/aopalliance/",
        "org/xml/", "org/w3c/", "org/wildfly/", "org/jetbrains/", "org/codehaus/", "org/bouncycastle/",
        "org/postgresql/", "org/h2/", "org/hsqldb/", "org/mariadb/", "org/flywaydb/", "org/junit/", "org/mockito/",
        "io/netty/", "io/vertx/", "io/quarkus/", "io/smallrye/", "io/grpc/", "io/micrometer/", "io/undertow/",
        "io/opentelemetry/", "io/projectreactor/", "io/lettuce/", "io/swagger/",
        "reactor/", "redis/clients/",
        "com/fasterxml/", "com/google/", "com/zaxxer/", "com/github/benmanes/", "com/mysql/", "com/mongodb/",
        "com/microsoft/sqlserver/", "com/nimbusds/", "com/amazonaws/",
        "ch/qos/logback/",
        "jakarta/", "javax/",
        "kotlin/", "kotlinx/", "scala/", "groovy/", "lombok/", "software/amazon/", "net/minidev/",
    };

    /** {@link #PREFIXES} by their first character: a class is compared only with the prefixes that can match. */
    private static final String[][] BY_FIRST_CHAR = new String[128][];

    static {
        for (char first = 0; first < BY_FIRST_CHAR.length; first++) {
            int count = 0;
            for (String prefix : PREFIXES) {
                if (prefix.charAt(0) == first) {
                    count++;
                }
            }
            if (count == 0) {
                continue;
            }
            String[] group = new String[count];
            int at = 0;
            for (String prefix : PREFIXES) {
                if (prefix.charAt(0) == first) {
                    group[at++] = prefix;
                }
            }
            BY_FIRST_CHAR[first] = group;
        }
    }

    private LibraryPackages() {
    }

    /** True if {@code internalName} ({@code a/b/C}) is a class of one of the listed libraries. */
    public static boolean contains(String internalName) {
        return prefixOf(internalName) != null;
    }

    /** The listed prefix {@code internalName} ({@code a/b/C}) starts with, or null if none. */
    public static String prefixOf(String internalName) {
        if (internalName.isEmpty()) {
            return null;
        }
        char first = internalName.charAt(0);
        String[] group = first < BY_FIRST_CHAR.length ? BY_FIRST_CHAR[first] : null;
        if (group == null) {
            return null;
        }
        for (String prefix : group) {
            if (internalName.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }
}
