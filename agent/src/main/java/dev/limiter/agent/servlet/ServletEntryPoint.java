package dev.limiter.agent.servlet;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.agent.http.RequestViews;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Servlets and filters, javax (Servlet 2.x-4) and jakarta (Servlet 5-6.1): {@code service} and {@code doFilter} of
 * every implementation. The start-up installs the {@link ServletLimiter} through its gate (requests wait there for
 * the rules); woven methods read the HTTP keys of the servlet request they run in.
 */
public final class ServletEntryPoint extends EntryPoint {

    public static final EntryTarget JAVAX = target("javax");
    public static final EntryTarget JAKARTA = target("jakarta");

    private static EntryTarget target(String namespace) {
        String pkg = namespace + "/servlet/";
        return EntryTarget.implementations("servlet-" + namespace, new String[] {pkg + "Servlet", pkg + "Filter"},
                pkg + "Servlet.class", new String[] {"service", "doFilter"}, Opcodes.ACC_PUBLIC, Opcodes.ACC_STATIC,
                AdviceShape.SERVLET, "(L" + pkg + "ServletRequest;L" + pkg + "ServletResponse;");
    }

    public ServletEntryPoint() {
        super(JAVAX, JAKARTA);
    }

    @Override
    public RequestViews.Lookup requestView(EntryWiring wiring) {
        return ServletApi.LOOKUP;
    }
}
