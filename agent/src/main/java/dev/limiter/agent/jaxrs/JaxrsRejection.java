package dev.limiter.agent.jaxrs;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;
import java.lang.ref.WeakReference;

/**
 * The rejection of a JAX-RS resource method: a {@code WebApplicationException} of the application's own JAX-RS
 * API carrying the complete response the rules file's {@code response:} section describes (status,
 * {@code Retry-After}, rate-limit headers, body and content type), so the JAX-RS runtime renders it like any
 * application error.
 *
 * <p>The response always has an entity (an empty string if the body template is empty): by the JAX-RS spec
 * (3.3.4) a {@code WebApplicationException} whose response has an entity is written as is, without asking the
 * application's {@code ExceptionMapper}s. Runtimes that still call a mapper meet
 * the woven mapper ({@code MapperEntryAdvice}), which asks {@link #responseOf} and returns our response instead.
 *
 * <p>Which exceptions are ours: the last one created on the thread, held weakly. An {@code ExceptionMapper} runs
 * on the thread the resource method threw on, right after it; an exception class of our own is not possible
 * (nothing is defined in application loaders). Runs on the rejection path only: it allocates (the response, the
 * exception and its stack trace), but takes no lock once the API of a loader has been looked up.
 */
public final class JaxrsRejection {

    private static final ThreadLocal<WeakReference<Throwable>> LAST = new ThreadLocal<>();

    private JaxrsRejection() {
    }

    /**
     * Builds the rejection for {@code rule} with the outcome {@code out} (see {@link Outcome}) of its first limit.
     *
     * @param loader the class loader of the woven resource class (its JAX-RS API is used)
     * @param ns     the API generation the resource class was woven for
     * @param spec   the rules' {@code response:} section
     * @return a {@code WebApplicationException} of namespace {@code ns}, to be thrown instead of running the method
     * @throws IllegalStateException if {@code loader} cannot see that API or building the response failed;
     *     runtime exceptions of the JAX-RS implementation pass through (the caller counts them as errors)
     */
    public static Throwable create(ClassLoader loader, JaxrsNamespace ns, ResponseSpec spec, Rule rule, long[] out) {
        return create(loader, ns, spec, rule, rule.headerText(), out);
    }

    /**
     * {@link #create(ClassLoader, JaxrsNamespace, ResponseSpec, Rule, long[])} for the limit whose header values are
     * {@code text} (the binding one of a rule with several).
     */
    public static Throwable create(ClassLoader loader, JaxrsNamespace ns, ResponseSpec spec, Rule rule,
            HeaderText text, long[] out) {
        JaxrsApi api = JaxrsApi.of(loader, ns);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // The API finds its implementation (RuntimeDelegate) through the context loader on first use; make it
        // the application's, as on a request thread of a servlet container, whatever thread this runs on.
        if (previous != loader) {
            thread.setContextClassLoader(loader);
        }
        try {
            Object builder = api.responseBuilder(spec.status());
            spec.headers(text, out, true, System.currentTimeMillis(),
                    (name, value) -> header(api, builder, name, value));
            String body = spec.body() == null ? ""
                    : spec.renderBody(rule.id(), Outcome.retryAfterSeconds(out));
            if (spec.contentType() != null) {
                try {
                    api.type(builder, spec.contentType());
                } catch (IllegalArgumentException unparsable) {
                    api.header(builder, "Content-Type", spec.contentType());
                }
            }
            api.entity(builder, body);
            Throwable rejection = api.newException("rate limit exceeded: rule " + rule.id(), api.build(builder));
            LAST.set(new WeakReference<>(rejection));
            return rejection;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("limiter: could not build the JAX-RS rejection of rule " + rule.id(), t);
        } finally {
            if (previous != loader) {
                thread.setContextClassLoader(previous);
            }
        }
    }

    /**
     * The {@code Response} of {@code exception} if it is the rejection last created on this thread by
     * {@link #create}, else null (the application's mapper should run). Never throws.
     */
    public static Object responseOf(Object exception) {
        if (exception == null) {
            return null;
        }
        WeakReference<Throwable> last = LAST.get();
        if (last == null || last.get() != exception) {
            return null;
        }
        try {
            return JaxrsApi.ofException(exception.getClass()).response(exception);
        } catch (Throwable t) {
            return null;
        }
    }

    private static void header(JaxrsApi api, Object builder, String name, String value) {
        try {
            api.header(builder, name, value);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
