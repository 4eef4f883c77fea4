package jaxrstest;

/** Overrides a generic superclass method: found through the superclass in its generic shape, CrudBase<String>. */
public class NameCrudResource extends CrudBase<String> {

    @Override
    public String get(long id) {
        return "name " + id;
    }
}
