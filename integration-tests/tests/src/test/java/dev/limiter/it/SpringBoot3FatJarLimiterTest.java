package dev.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.TestApp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract on the Spring Boot 3 app launched the way Boot apps ship: {@code java -javaagent:... -jar} on
 * the repackaged fat jar. The servlets, the filter and the controller then live in {@code BOOT-INF/lib} and
 * {@code BOOT-INF/classes} and are loaded by Boot's nested-jar {@code LaunchedClassLoader}, not the system class
 * loader: the woven code must reach the bootstrap bridge from there.
 */
class SpringBoot3FatJarLimiterTest extends AbstractLimiterServerTest {

    @Override
    protected TestApp app() {
        return TestApp.SPRING_BOOT3_FAT_JAR;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // spring.threads.virtual.enabled
    }

    @Test
    void theServletsAreLoadedByBootsNestedJarClassLoader() {
        String loadedBy = server().awaitOutput("(?m)^SERVLETS LOADED BY \\S+", Duration.ofSeconds(10));
        assertThat(loadedBy).isEqualTo("SERVLETS LOADED BY org.springframework.boot.loader.launch.LaunchedClassLoader");
        assertThat(server().output()).as("launched with -jar").containsPattern("(?m)^\\$ .* -jar \\S+-exec\\.jar 0$");
    }
}
