package dev.limiter.it.app.boot;

import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/** Prints {@code LISTENING <port>} once the embedded server accepts requests: the harness waits for that line. */
@Component
class ListeningPrinter implements ApplicationListener<WebServerInitializedEvent> {

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        System.out.println("LISTENING " + event.getWebServer().getPort());
        System.out.flush();
    }
}
