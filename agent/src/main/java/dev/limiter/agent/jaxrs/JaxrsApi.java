package dev.limiter.agent.jaxrs;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The few JAX-RS calls a rejection needs ({@code Response.status(int)}, the builder's {@code header}, {@code type},
 * {@code entity}, {@code build}, and {@code new WebApplicationException(String, Response)}), as method handles
 * bound to the API one application class loader sees. The agent's own loader has no JAX-RS, and each web
 * application may bring its own copy, so nothing here is compiled against the API.
 *
 * <p>Looked up once per {@code WebApplicationException} class (a {@link ClassValue}, so the handles live exactly
 * as long as that class and never pin its loader), and found from a loader through a weak per-namespace map with
 * a lock-free single-entry front cache: a flood of rejections from one application takes no lock.
 */
final class JaxrsApi {

    private static final ClassValue<JaxrsApi> BY_EXCEPTION_CLASS = new ClassValue<>() {
        @Override
        protected JaxrsApi computeValue(Class<?> exceptionClass) {
            return new JaxrsApi(exceptionClass);
        }
    };

    private static final LoaderCache[] LOADERS = {new LoaderCache(), new LoaderCache()};

    private final MethodHandle status;
    private final MethodHandle header;
    private final MethodHandle type;
    private final MethodHandle entity;
    private final MethodHandle build;
    private final MethodHandle newException;
    private final MethodHandle getResponse;

    private JaxrsApi(Class<?> exceptionClass) {
        try {
            String pkg = exceptionClass.getPackageName();
            ClassLoader loader = exceptionClass.getClassLoader();
            Class<?> response = Class.forName(pkg + ".core.Response", false, loader);
            Class<?> builder = Class.forName(pkg + ".core.Response$ResponseBuilder", false, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            status = lookup.findStatic(response, "status", MethodType.methodType(builder, int.class))
                    .asType(MethodType.methodType(Object.class, int.class));
            header = generic(lookup.findVirtual(builder, "header",
                    MethodType.methodType(builder, String.class, Object.class)));
            type = generic(lookup.findVirtual(builder, "type", MethodType.methodType(builder, String.class)));
            entity = generic(lookup.findVirtual(builder, "entity", MethodType.methodType(builder, Object.class)));
            build = generic(lookup.findVirtual(builder, "build", MethodType.methodType(response)));
            newException = generic(lookup.findConstructor(exceptionClass,
                    MethodType.methodType(void.class, String.class, response)));
            getResponse = generic(lookup.findVirtual(exceptionClass, "getResponse", MethodType.methodType(response)));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("limiter: unusable JAX-RS API " + exceptionClass.getName()
                    + " in " + exceptionClass.getClassLoader(), e);
        }
    }

    private static MethodHandle generic(MethodHandle handle) {
        return handle.asType(handle.type().generic());
    }

    /**
     * The API of namespace {@code ns} as {@code loader} sees it.
     *
     * @throws IllegalStateException if {@code loader} cannot see that API
     */
    static JaxrsApi of(ClassLoader loader, JaxrsNamespace ns) {
        if (loader == null) {
            throw new IllegalStateException("limiter: the bootstrap class loader has no " + ns.packageName());
        }
        return BY_EXCEPTION_CLASS.get(LOADERS[ns.ordinal()].exceptionClass(loader, ns));
    }

    /** The API a {@code WebApplicationException} created through {@link #of} belongs to. */
    static JaxrsApi ofException(Class<?> exceptionClass) {
        return BY_EXCEPTION_CLASS.get(exceptionClass);
    }

    Object responseBuilder(int statusCode) throws Throwable {
        return (Object) status.invokeExact(statusCode);
    }

    void header(Object builder, String name, String value) throws Throwable {
        Object ignored = (Object) header.invokeExact(builder, (Object) name, (Object) value);
    }

    void type(Object builder, String contentType) throws Throwable {
        Object ignored = (Object) type.invokeExact(builder, (Object) contentType);
    }

    void entity(Object builder, Object body) throws Throwable {
        Object ignored = (Object) entity.invokeExact(builder, body);
    }

    Object build(Object builder) throws Throwable {
        return (Object) build.invokeExact(builder);
    }

    Throwable newException(String message, Object response) throws Throwable {
        return (Throwable) (Object) newException.invokeExact((Object) message, response);
    }

    Object response(Object exception) throws Throwable {
        return (Object) getResponse.invokeExact(exception);
    }

    /**
     * Loader to {@code WebApplicationException} class, for one namespace. Weak both ways: the class is held only
     * through a weak reference (its own loader, or an ancestor of {@code loader}, keeps it alive while
     * {@code loader} lives), so an undeployed application's loader can be collected.
     */
    private static final class LoaderCache {

        private final Map<ClassLoader, WeakReference<Class<?>>> map =
                Collections.synchronizedMap(new WeakHashMap<>());
        private volatile Entry last;

        Class<?> exceptionClass(ClassLoader loader, JaxrsNamespace ns) {
            Entry recent = last;
            if (recent != null && recent.loader.get() == loader) {
                Class<?> known = recent.exceptionClass.get();
                if (known != null) {
                    return known;
                }
            }
            WeakReference<Class<?>> cached = map.get(loader);
            Class<?> found = cached == null ? null : cached.get();
            if (found == null) {
                try {
                    found = Class.forName(ns.type("WebApplicationException"), false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IllegalStateException("limiter: " + ns.packageName() + " is not visible from " + loader,
                            e);
                }
                map.put(loader, new WeakReference<>(found));
            }
            last = new Entry(new WeakReference<>(loader), new WeakReference<>(found));
            return found;
        }

        private record Entry(WeakReference<ClassLoader> loader, WeakReference<Class<?>> exceptionClass) {
        }
    }
}
