package dev.limiter.agent.http;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A binding per request class, as that class's loader sees the framework: the binding's static
 * {@code find(ClassLoader, MethodHandle[])} fills its handle table, and its constructor
 * {@code (MethodHandle[], Throwable)} is given the table and what went wrong, if anything (then the binding is not
 * supported and its requests are left alone). Both are found once, through the binding's own lookup.
 */
public final class BindingCache<T> extends ClassValue<T> {

    private final MethodHandle find;
    private final MethodHandle make;
    private final int handles;

    private BindingCache(MethodHandle find, MethodHandle make, int handles) {
        this.find = find;
        this.make = make;
        this.handles = handles;
    }

    /** The cache of {@code binding}, whose table has {@code handles} slots; {@code lookup}: the binding's own. */
    public static <T> BindingCache<T> of(MethodHandles.Lookup lookup, Class<T> binding, int handles) {
        try {
            return new BindingCache<>(
                    lookup.findStatic(binding, "find",
                            MethodType.methodType(void.class, ClassLoader.class, MethodHandle[].class)),
                    lookup.findConstructor(binding,
                            MethodType.methodType(void.class, MethodHandle[].class, Throwable.class))
                            .asType(MethodType.methodType(Object.class, MethodHandle[].class, Throwable.class)),
                    handles);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(binding + " is not a binding", e);
        }
    }

    /** The binding of {@code request}'s class. */
    public T of(Object request) {
        return get(request.getClass());
    }

    @Override
    @SuppressWarnings("unchecked")
    protected T computeValue(Class<?> type) {
        MethodHandle[] h = new MethodHandle[handles];
        Throwable problem = null;
        try {
            find.invokeExact(type.getClassLoader(), h);
        } catch (Throwable t) {
            problem = t;
        }
        try {
            return (T) (Object) make.invokeExact(h, problem);
        } catch (Throwable t) { // a handle found but not of the slot's type: the binding cannot serve
            try {
                return (T) (Object) make.invokeExact(new MethodHandle[handles], t);
            } catch (Throwable unexpected) {
                throw new IllegalStateException(unexpected);
            }
        }
    }
}
