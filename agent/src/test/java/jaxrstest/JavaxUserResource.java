package jaxrstest;

/** javax: implements {@link JavaxUserApi} without annotations. */
public class JavaxUserResource implements JavaxUserApi {

    @Override
    public void remove(String user) {
    }
}
