package dev.limiter.it.app.boot;

import dev.limiter.it.app.AppFilter;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Prints {@code LISTENING <port>} once the embedded server accepts requests: the harness waits for that line.
 * Before it, {@code SERVLETS LOADED BY <loader class>}: the app loader under {@code -cp}, Boot's nested-jar
 * {@code LaunchedClassLoader} under {@code java -jar} on the fat jar (the test checks which one it got).
 */
@Component
class ListeningPrinter implements ApplicationListener<WebServerInitializedEvent> {

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        System.out.println("SERVLETS LOADED BY " + AppFilter.class.getClassLoader().getClass().getName());
        System.out.println("LISTENING " + event.getWebServer().getPort());
        System.out.flush();
    }
}
