package dev.limiter.it.app.quarkus;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.vertx.http.HttpServer;
import jakarta.inject.Inject;

/**
 * Quarkus REST (RESTEasy Reactive on Vert.x) in JVM mode, run as {@code java -jar target/quarkus-app/quarkus-run.jar}.
 * The HTTP port is random ({@code quarkus.http.port=0}); once the server is up the bound port is printed as
 * {@code LISTENING <port>} (the test harness waits for that line). The harness's port argument is ignored.
 */
@QuarkusMain
public class QuarkusApp implements QuarkusApplication {

    @Inject
    HttpServer server;

    @Override
    public int run(String... args) {
        System.out.println("LISTENING " + server.getPort());
        System.out.flush();
        Quarkus.waitForExit();
        return 0;
    }
}
