package dev.limiter.agent.http;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A framework's public methods as one application loader sees them, for a binding's {@code find}: types are given
 * as classes or by name (a name without a dot is a type of the finder's home package), so a binding states each
 * method once, in one line, instead of loading its types first. Handles come back unerased;
 * {@link ErasedHandles#eraseAll} erases a table once it is filled.
 */
public final class HandleFinder {

    private final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    private final ClassLoader loader;
    private final String home;

    /** Types named without a dot are looked for in {@code home} (a package name, e.g. {@code "okhttp3"}). */
    public HandleFinder(ClassLoader loader, String home) {
        this.loader = loader;
        this.home = home + '.';
    }

    /** {@code type} if it is a class; else the class of that name, as the loader sees it, not initialised. */
    public Class<?> type(Object type) throws ClassNotFoundException {
        if (type instanceof Class<?> known) {
            return known;
        }
        String name = (String) type;
        return Class.forName(name.indexOf('.') < 0 ? home + name : name, false, loader);
    }

    /** The public instance method {@code owner.name(parameters)} returning {@code returns}. */
    public MethodHandle virtual(Object owner, String name, Object returns, Object... parameters)
            throws ReflectiveOperationException {
        return lookup.findVirtual(type(owner), name, methodType(returns, parameters));
    }

    /** The public static method {@code owner.name(parameters)} returning {@code returns}. */
    public MethodHandle function(Object owner, String name, Object returns, Object... parameters)
            throws ReflectiveOperationException {
        return lookup.findStatic(type(owner), name, methodType(returns, parameters));
    }

    /** The public constructor {@code owner(parameters)}. */
    public MethodHandle constructor(Object owner, Object... parameters) throws ReflectiveOperationException {
        return lookup.findConstructor(type(owner), methodType(void.class, parameters));
    }

    /** The public instance field {@code owner.name} of type {@code type}, read. */
    public MethodHandle getter(Object owner, String name, Object type) throws ReflectiveOperationException {
        return lookup.findGetter(type(owner), name, type(type));
    }

    /** The value of the public static field {@code owner.name} of type {@code type} (a constant the API offers). */
    public Object constant(Object owner, String name, Object type) throws Throwable {
        return lookup.findStaticGetter(type(owner), name, type(type)).invoke();
    }

    /** {@code first}, then each of {@code next} applied to what the one before returned: a chain of getters. */
    public static MethodHandle then(MethodHandle first, MethodHandle... next) {
        MethodHandle chain = first;
        for (MethodHandle step : next) {
            chain = MethodHandles.filterReturnValue(chain, step);
        }
        return chain;
    }

    /** {@code method} called on what {@code receiver} returns for its argument: {@code receiver(x).method(...)}. */
    public static MethodHandle on(MethodHandle receiver, MethodHandle method) {
        return MethodHandles.filterArguments(method, 0, receiver);
    }

    private MethodType methodType(Object returns, Object[] parameters) throws ClassNotFoundException {
        Class<?>[] types = new Class<?>[parameters.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = type(parameters[i]);
        }
        return MethodType.methodType(type(returns), types);
    }
}
