package dev.limiter.agent.entry;

import net.bytebuddy.jar.asm.Type;

/**
 * The shapes of advice the agent weaves into a library's entry method, each one bytecode pattern written once (in
 * {@code weave}) and shared by every entry point whose method has that shape. A new server whose entry fits one of
 * them needs no new advice: its {@link EntryTarget} names the shape (and, for {@link #PUBLISHER}, its bridge).
 */
public enum AdviceShape {

    /**
     * A void method whose first two arguments are a servlet request and response ({@code service}, {@code doFilter}):
     * the check at the outermost entry, the servlet skipped on a rejection, permits released at its exit.
     */
    SERVLET,
    /** A method of one object argument that returns an object ({@code ExceptionMapper.toResponse}). */
    MAPPER,
    /**
     * A method of two arguments (request and response, or call and metadata), or of the request alone, that
     * returns what ends the call later (a {@code Mono}, a listener, the flow of a response): the bridge's
     * {@code enter} (taking as many arguments) may return the replacement, and every return value goes through its
     * {@code exit} (a throw through {@code failed}) so what the call holds follows its end.
     */
    PUBLISHER,
    /** A no-argument void method whose receiver is the request's routing context: true from the bridge returns. */
    ROUTING,
    /** A no-argument void runner whose receiver is the request: it becomes the thread's current request. */
    REQUEST_SCOPE,
    /**
     * A void method that serves a request to its end on the calling thread, its request and response the last two
     * arguments (Helidon's {@code HttpRoutingImpl.route(ctx, request, response)}): the bridge's {@code enter} may
     * answer (the body is skipped) or hand back a token, which its {@code exit} runs on every way out.
     */
    HANDLER,
    /**
     * An HTTP client's call method of object arguments that returns the response (a blocking call), its future, or
     * nothing (a call that answers a callback): the bridge's {@code enter} gets the client and every argument (up
     * to three as they are; more, all of them in one {@code Object[]} in the first place) and may answer (a rejection thrown, a future returned instead, or the callback answered); every
     * returned value goes through its {@code exit}, a throw through {@code failed}. A target of this shape names
     * its methods and what their descriptors start with; any descriptor of that shape fits.
     */
    CLIENT_CALL;

    /** True if the advice of this shape keeps a local of its own (the weaver reads the method's max_locals first). */
    public boolean addsLocal() {
        return this == HANDLER;
    }

    /** True if a method of this shape with {@code descriptor} fits a target declaring {@code descriptorStart}. */
    public boolean fits(String descriptorStart, String descriptor) {
        return switch (this) {
            case SERVLET -> descriptor.endsWith(")V") && (descriptor.length() == descriptorStart.length() + 2
                    || isOneType(descriptor.substring(descriptorStart.length(), descriptor.length() - 2)));
            case MAPPER -> {
                int close = descriptor.indexOf(')');
                yield isOneType(descriptor.substring(1, close)) && descriptor.charAt(close + 1) == 'L';
            }
            case HANDLER -> descriptor.length() == descriptorStart.length() && descriptor.endsWith(")V")
                    && endsWithTwoObjects(Type.getArgumentTypes(descriptor));
            case CLIENT_CALL -> onlyObjects(Type.getArgumentTypes(descriptor))
                    && (descriptor.endsWith(")V") || descriptor.endsWith(";"));
            default -> descriptor.length() == descriptorStart.length(); // the whole descriptor
        };
    }

    /** True if {@code arguments} are all objects (what a client's call method takes). */
    private static boolean onlyObjects(Type[] arguments) {
        for (Type argument : arguments) {
            if (argument.getSort() != Type.OBJECT) {
                return false;
            }
        }
        return true;
    }

    /** True if the last two of {@code arguments} are objects (the request and the response). */
    private static boolean endsWithTwoObjects(Type[] arguments) {
        return arguments.length >= 2 && arguments[arguments.length - 2].getSort() == Type.OBJECT
                && arguments[arguments.length - 1].getSort() == Type.OBJECT;
    }

    /** True if {@code descriptors} is exactly one field descriptor. */
    static boolean isOneType(String descriptors) {
        int i = 0;
        while (i < descriptors.length() && descriptors.charAt(i) == '[') {
            i++;
        }
        if (i == descriptors.length()) {
            return false;
        }
        if (descriptors.charAt(i) == 'L') {
            return descriptors.indexOf(';') == descriptors.length() - 1;
        }
        return i == descriptors.length() - 1;
    }
}
