package jaxrstest;

import jakarta.ws.rs.Path;

/** Implements a generic API: javac adds bridge methods find()Object and save(Object), which must not be matched. */
@Path("/generic")
public class GenericResource implements GenericApi<String> {

    @Override
    public String find(String key) {
        return key;
    }

    @Override
    public void save(String value) {
    }
}
