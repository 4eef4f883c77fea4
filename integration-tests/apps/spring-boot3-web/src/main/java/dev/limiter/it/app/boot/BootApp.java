package dev.limiter.it.app.boot;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;

/**
 * Spring Boot 3 web application (embedded Tomcat, {@code DispatcherServlet} on {@code /}): {@code /api/...} is
 * served by {@link ApiController}, so the agent has to limit {@code @RestController} paths reached through
 * Spring MVC; every other endpoint of the shared test application is a plain servlet beside it
 * ({@link SharedEndpoints}). Boot's own error controller is off: the shared {@code /error} servlet answers, as on
 * the other servers. {@code main([port])} (default 0) prints {@code LISTENING <port>} ({@link ListeningPrinter}).
 * {@code spring.threads.virtual.enabled} is on: from Java 21 Boot gives the embedded Tomcat a virtual-thread
 * executor; on Java 17 Boot ignores it.
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
public class BootApp {

    public static void main(String[] args) {
        String port = args.length > 0 ? args[0] : "0";
        SpringApplication application = new SpringApplication(BootApp.class);
        application.setDefaultProperties(Map.of(
                "server.port", port,
                "spring.main.banner-mode", "off",
                "spring.threads.virtual.enabled", "true"));
        application.run(args);
    }
}
