package dev.limiter.it.app.webflux;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Boot WebFlux application on Reactor Netty (no servlet API on the class path), built once against Boot
 * 3.5 and once against Boot 4.0 from this one source. {@code main([port])} (default 0) prints
 * {@code LISTENING <port>} once the server accepts requests (read from {@code local.server.port}, which both Boot
 * versions set, so no Boot-version-specific event class is needed).
 */
@SpringBootApplication
public class WebfluxApp {

    public static void main(String[] args) {
        String port = args.length > 0 ? args[0] : "0";
        SpringApplication application = new SpringApplication(WebfluxApp.class);
        application.setDefaultProperties(Map.of(
                "server.port", port,
                "spring.main.banner-mode", "off"));
        ConfigurableApplicationContext context = application.run(args);
        System.out.println("LISTENING " + context.getEnvironment().getProperty("local.server.port"));
        System.out.flush();
    }
}
