package dev.limiter.it.jaxrs;

import jakarta.ws.rs.Path;

/**
 * A resource whose method annotations are all inherited from {@link GreetingApi}. The class repeats
 * {@code @Path} because runtimes discover root resources by the annotation on the registered class.
 */
@Path("/greetings")
public class GreetingResource implements GreetingApi {

    @Override
    public String greet(String name) {
        return "hello " + name;
    }
}
