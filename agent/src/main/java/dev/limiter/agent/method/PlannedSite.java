package dev.limiter.agent.method;

import dev.limiter.agent.classfile.MethodShape;

/**
 * A method the current rules (or a {@code @Limit} on it or its class) say to weave, and how: its kind and the
 * argument it passes as the key.
 *
 * @param kind               plain method or JAX-RS resource method (and which namespace)
 * @param method             the method, as declared in the class being woven
 * @param keyIndex           parameter index of the key argument, or -1 for none
 * @param keyName            the {@code @PathParam} name when the key argument was chosen for {@code path-param:NAME}
 * @param declaredExceptions binary names of the exceptions the method declares
 * @param annotationId       the rule id of the method's {@code @Limit} (its own or its class's), or null
 * @param costIndex          parameter index of the argument a call's cost is read from ({@code cost: arg:N}), or -1
 */
record PlannedSite(SiteKind kind, MethodShape method, int keyIndex, String keyName,
        String[] declaredExceptions, String annotationId, int costIndex) {

    PlannedSite(SiteKind kind, MethodShape method, int keyIndex, String keyName, String[] declaredExceptions) {
        this(kind, method, keyIndex, keyName, declaredExceptions, null, -1);
    }

    /**
     * What makes two weavings of the same class the same site: kind, method signature, key and cost arguments.
     * Not the annotation id: the same class file always carries the same annotation, and the woven code is the
     * same.
     */
    String identity() {
        return kind + " " + method.name() + method.descriptor() + " @" + keyIndex
                + (keyName == null ? "" : " " + keyName) + (costIndex < 0 ? "" : " cost@" + costIndex);
    }
}
