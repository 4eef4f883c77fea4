package dev.limiter.agent.registry;

import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.grpc.GrpcEntryPoint;
import dev.limiter.agent.helidon.HelidonEntryPoint;
import dev.limiter.agent.jaxrs.JaxrsEntryPoint;
import dev.limiter.agent.micronaut.MicronautEntryPoint;
import dev.limiter.agent.outbound.apache.ApacheEntryPoint;
import dev.limiter.agent.outbound.jdk.JdkHttpClientEntryPoint;
import dev.limiter.agent.outbound.okhttp.OkHttpEntryPoint;
import dev.limiter.agent.outbound.restclient.ReactorRequestEntryPoint;
import dev.limiter.agent.outbound.urlconnection.UrlConnectionEntryPoint;
import dev.limiter.agent.outbound.webclient.WebClientEntryPoint;
import dev.limiter.agent.quarkus.QuarkusRestEntryPoint;
import dev.limiter.agent.servlet.ServletEntryPoint;
import dev.limiter.agent.vertx.VertxWebEntryPoint;
import dev.limiter.agent.webflux.WebfluxEntryPoint;

/**
 * Every entry point the agent knows, in one list: the transformer weaves their targets, the start-up installs
 * them, the architecture test checks that none reaches another. Adding a server is its package and one line here.
 */
public final class EntryPoints {

    /** In weaving order: a class that is several targets at once is woven for the first. */
    public static final EntryPoint[] ALL = {
        new ServletEntryPoint(),
        new JaxrsEntryPoint(),
        new ApacheEntryPoint(),
        new WebfluxEntryPoint(),
        new GrpcEntryPoint(),
        new QuarkusRestEntryPoint(),
        new VertxWebEntryPoint(),
        new HelidonEntryPoint(),
        new MicronautEntryPoint(),
        new JdkHttpClientEntryPoint(),
        new OkHttpEntryPoint(),
        new WebClientEntryPoint(),
        new UrlConnectionEntryPoint(),
        new ReactorRequestEntryPoint(),
    };

    private EntryPoints() {
    }

    /** The targets of every entry point, in order. */
    public static EntryTarget[] targets() {
        int count = 0;
        for (EntryPoint entry : ALL) {
            count += entry.targets().length;
        }
        EntryTarget[] all = new EntryTarget[count];
        int at = 0;
        for (EntryPoint entry : ALL) {
            for (EntryTarget target : entry.targets()) {
                all[at++] = target;
            }
        }
        return all;
    }
}
