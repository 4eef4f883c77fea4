package dev.limiter.agent.method;

import net.bytebuddy.description.method.MethodDescription;

/**
 * A method the current rules say to weave, and how: its kind and the argument it passes as the key.
 *
 * @param kind               plain method or JAX-RS resource method (and which namespace)
 * @param method             the method, as declared in the class being woven
 * @param keyIndex           parameter index of the key argument, or -1 for none
 * @param keyName            the {@code @PathParam} name when the key argument was chosen for {@code path-param:NAME}
 * @param declaredExceptions binary names of the exceptions the method declares
 */
record PlannedSite(SiteKind kind, MethodDescription method, int keyIndex, String keyName,
        String[] declaredExceptions) {

    /** What makes two weavings of the same class the same site: kind, method signature, key argument. */
    String identity() {
        return kind + " " + method.getName() + method.getDescriptor() + " @" + keyIndex
                + (keyName == null ? "" : " " + keyName);
    }
}
