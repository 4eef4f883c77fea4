package jaxrstest;

import jakarta.ws.rs.Produces;

/** Implements {@link OrderApi} with no JAX-RS annotation of its own except on one method, which then loses the inherited ones. */
public class OrderResource implements OrderApi {

    @Override
    public String get(String orderId) {
        return "order " + orderId;
    }

    @Override
    @Produces("text/plain")
    public void cancel(long orderId) {
    }

    public String notInTheApi() {
        return "no";
    }
}
