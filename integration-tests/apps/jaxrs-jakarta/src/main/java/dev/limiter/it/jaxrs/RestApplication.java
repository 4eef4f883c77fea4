package dev.limiter.it.jaxrs;

import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * The JAX-RS application every JAX-RS test server deploys, whatever the runtime: the same resources, the same
 * application {@link AppExceptionMapper}. Servers mount it under {@code /rest}.
 */
public final class RestApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(ItemsResource.class, GreetingResource.class, OrdersResource.class, StockResource.class,
                MailResource.class, NotifyResource.class, MarkerResource.class, ControlResource.class,
                AnnotatedResource.class,
                AppExceptionMapper.class);
    }
}
