package dev.limiter.it.rest;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The JAX-RS scenarios that need a servlet container in front of the JAX-RS runtime: the servlet entry hands
 * the HTTP request in flight to the woven resource method, so HTTP-path rules and JAX-RS rules meet on the same
 * request, and JAX-RS rules can take their key from the request (here a header).
 */
abstract class AbstractJaxrsServletServerTest extends AbstractJaxrsServerTest {

    @Test
    void aServletPathRuleAndAJaxrsRuleOnTheSameRequestCountItOnceEach() {
        // orders-http: /rest/orders/{id}, limit 4, global; orders-jaxrs: OrdersResource.get, limit 2 per id
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/rest/orders/a");
            assertThat(response.statusCode()).as("order a, request %d: %s", i + 1, describe(response))
                    .isEqualTo(200);
            assertThat(response.body()).isEqualTo("order a");
        }
        // third for id a: admitted by the servlet rule (3 of 4), rejected by the JAX-RS rule (3 of 2)
        assertRejected(http.get("/rest/orders/a"), "orders-jaxrs", 3600);
        // fourth request through the servlet rule, first for id b
        HttpResponse<String> b = http.get("/rest/orders/b");
        assertThat(b.statusCode()).as(describe(b)).isEqualTo(200);
        assertThat(b.body()).isEqualTo("order b");
        // fifth: the servlet rule's budget of 4 is spent, whatever the id
        assertRejected(http.get("/rest/orders/c"), "orders-http", 3600);
    }

    @Test
    void aJaxrsRuleTakesItsKeyFromAHeaderOfTheRequestInFlight() {
        HttpResponse<String> alice = http.get("/rest/orders", "X-Api-Key", "alice");
        assertThat(alice.statusCode()).as(describe(alice)).isEqualTo(200);
        assertThat(alice.body()).isEqualTo("orders");
        assertRejected(http.get("/rest/orders", "X-Api-Key", "alice"), "orders-by-header", 3600);
        assertThat(http.status("/rest/orders", "X-Api-Key", "bob")).as("another key").isEqualTo(200);
    }
}
