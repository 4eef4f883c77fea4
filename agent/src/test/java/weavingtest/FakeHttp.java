package weavingtest;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Minimal fake HTTP request/response for one servlet namespace, built as dynamic proxies of the real API
 * interfaces, so weaving tests can call woven servlets and filters without a container.
 */
public final class FakeHttp {

    public final Object request;
    public final Object response;
    public final Map<String, Object> attributes = new HashMap<>();
    public final Map<String, String> requestHeaders = new HashMap<>();
    public final Map<String, String> parameters = new HashMap<>();
    /** Thrown by {@code getParameter} when set, as a container refusing the request's parameters does. */
    public RuntimeException parameterFailure;
    public final Map<String, String> responseHeaders = new LinkedHashMap<>();
    public final ByteArrayOutputStream body = new ByteArrayOutputStream();
    public int status = 200;
    public boolean committed;
    public String contentType;
    public String method = "GET";
    public String servletPath = "";
    public String pathInfo;
    public String remoteAddr = "10.0.0.1";
    public boolean asyncStarted;
    public final java.util.List<Object> asyncListeners = new java.util.ArrayList<>();

    public FakeHttp(String pkg, String path) {
        this.pathInfo = path;
        ClassLoader loader = FakeHttp.class.getClassLoader();
        try {
            Class<?> req = Class.forName(pkg + ".http.HttpServletRequest");
            Class<?> res = Class.forName(pkg + ".http.HttpServletResponse");
            Object stream = pkg.equals("jakarta.servlet") ? new JakartaOut(body) : new JavaxOut(body);
            Class<?> ctx = Class.forName(pkg + ".AsyncContext");
            Object asyncContext = Proxy.newProxyInstance(loader, new Class<?>[] {ctx}, (proxy, m, args) ->
                    switch (m.getName()) {
                        case "addListener" -> asyncListeners.add(args[0]) ? null : null;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "FakeAsyncContext";
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
            request = Proxy.newProxyInstance(loader, new Class<?>[] {req}, (proxy, m, args) -> switch (m.getName()) {
                case "getMethod" -> method;
                case "getServletPath" -> servletPath;
                case "getPathInfo" -> pathInfo;
                case "getRequestURI" -> servletPath + (pathInfo == null ? "" : pathInfo);
                case "getContextPath" -> "";
                case "getProtocol" -> "HTTP/1.1";
                case "getRemoteAddr" -> remoteAddr;
                case "getHeader" -> requestHeaders.get((String) args[0]);
                case "getHeaders" -> requestHeaders.containsKey((String) args[0])
                        ? Collections.enumeration(java.util.List.of(requestHeaders.get((String) args[0])))
                        : Collections.emptyEnumeration();
                case "getParameter" -> {
                    if (parameterFailure != null) {
                        throw parameterFailure;
                    }
                    yield parameters.get((String) args[0]);
                }
                case "getUserPrincipal" -> null;
                case "getAttribute" -> attributes.get((String) args[0]);
                case "setAttribute" -> attributes.put((String) args[0], args[1]) == null ? null : null;
                case "getDispatcherType" -> null;
                case "isAsyncStarted" -> asyncStarted;
                case "getAsyncContext" -> {
                    if (!asyncStarted) {
                        throw new IllegalStateException("not async");
                    }
                    yield asyncContext;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "FakeRequest";
                default -> throw new UnsupportedOperationException(m.getName());
            });
            response = Proxy.newProxyInstance(loader, new Class<?>[] {res}, (proxy, m, args) -> switch (m.getName()) {
                case "isCommitted" -> committed;
                case "setStatus" -> {
                    status = (Integer) args[0];
                    yield null;
                }
                case "setHeader" -> responseHeaders.put((String) args[0], (String) args[1]) == null ? null : null;
                case "setContentType" -> {
                    contentType = (String) args[0];
                    yield null;
                }
                case "getOutputStream" -> stream;
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "FakeResponse";
                default -> throw new UnsupportedOperationException(m.getName());
            });
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    public String body() {
        return body.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    static final class JakartaOut extends jakarta.servlet.ServletOutputStream {
        private final ByteArrayOutputStream sink;

        JakartaOut(ByteArrayOutputStream sink) {
            this.sink = sink;
        }

        @Override
        public void write(int b) {
            sink.write(b);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(jakarta.servlet.WriteListener listener) {
        }
    }

    static final class JavaxOut extends javax.servlet.ServletOutputStream {
        private final ByteArrayOutputStream sink;

        JavaxOut(ByteArrayOutputStream sink) {
            this.sink = sink;
        }

        @Override
        public void write(int b) {
            sink.write(b);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(javax.servlet.WriteListener listener) {
        }
    }
}
