package jaxrstest;

/** Inherits @Path and the @PUT of {@link BaseResource#update}; {@link BaseResource#describe} is declared there, not here. */
public class AccountResource extends BaseResource {

    @Override
    public void update(String account, String body) {
    }

    public void audit() {
    }
}
