package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import jakarta.servlet.http.HttpServlet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import jaxrstest.CatchAllMapper;
import methodtest.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;
import weavingtest.JakartaHello;
import weavingtest.JakartaPassFilter;

/**
 * The transformer's decisions, driven with the class files the JVM would hand it (no instrumentation here;
 * WeaverTest, MethodWeavingTest and JaxrsWeavingTest run it installed): which classes get woven, that the woven
 * code calls the bridge, and that a failure is logged and leaves the class alone.
 */
class LimiterTransformerTest {

    /** Names of the bridge methods the advice calls: in the woven class file, not in the original. */
    private static final String SERVLET_ENTRY = "servletEnter";
    private static final String METHOD_ENTRY = "methodEnter";
    private static final String LOGGER = "dev.limiter.test.transformer";

    private final ClassLoader loader = LimiterTransformerTest.class.getClassLoader();
    /** Held strongly: JUL keeps loggers weakly, and a collected one would come back without the handler. */
    private final Logger logger = Logger.getLogger(LOGGER);
    private final List<String> woven = new ArrayList<>();
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @TempDir
    Path dir;

    @BeforeEach
    void captureLog() {
        logger.setUseParentHandlers(false);
        logger.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        logger.removeHandler(capture);
    }

    private LimiterTransformer transformer(RuleSetHolder holder) {
        ThrottledLog log = new ThrottledLog(LOGGER, 0);
        return holder == null ? LimiterTransformer.servletsOnly(log, woven::add)
                : LimiterTransformer.forRules(holder, log, woven::add);
    }

    private static byte[] transform(LimiterTransformer transformer, ClassLoader from, Class<?> type) {
        return transformer.transform(from, ClassFiles.internalName(type), null, null, ClassFiles.of(type));
    }

    private static boolean mentions(byte[] classFile, String name) {
        return new String(classFile, StandardCharsets.ISO_8859_1).contains(name);
    }

    @Test
    void servletsAndFiltersAreWovenWithTheBridgeCallInTheMethodsTheyDeclare() {
        LimiterTransformer transformer = transformer(null);
        byte[] httpServlet = transform(transformer, loader, HttpServlet.class);
        byte[] servlet = transform(transformer, loader, JakartaHello.class);
        byte[] filter = transform(transformer, loader, JakartaPassFilter.class);
        assertThat(mentions(ClassFiles.of(HttpServlet.class), SERVLET_ENTRY)).isFalse();
        assertThat(mentions(httpServlet, SERVLET_ENTRY)).isTrue();
        assertThat(mentions(filter, SERVLET_ENTRY)).isTrue();
        // only doGet: nothing to change (its service(...) is HttpServlet's), so not even looked at as a servlet
        assertThat(servlet).isNull();
        assertThat(woven).containsExactly(HttpServlet.class.getName(), JakartaPassFilter.class.getName());
        assertThat(logged).isEmpty();
    }

    @Test
    void otherClassesIgnoredPackagesAndTheBootstrapLoaderAreLeftAlone() {
        LimiterTransformer transformer = transformer(null);
        assertThat(transform(transformer, loader, FakeHttp.class)).isNull();
        assertThat(transform(transformer, null, JakartaHello.class)).isNull();
        assertThat(transformer.transform(loader, "dev/limiter/agent/Hello", null, null,
                ClassFiles.of(JakartaHello.class))).isNull();
        assertThat(transformer.transform(loader, null, null, null, ClassFiles.of(JakartaHello.class))).isNull();
        assertThat(woven).isEmpty();
    }

    @Test
    void mappersAndNamedClassesNeedRules() throws Exception {
        assertThat(transform(transformer(null), loader, CatchAllMapper.class)).isNull();
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: count
                    match: { method: { class: methodtest.Counter, method: count } }
                    limit: 5
                    window: 1m
                """);
        RuleSetHolder holder = RuleSetHolder.open(rules, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        LimiterTransformer transformer = transformer(holder);
        byte[] mapper = transform(transformer, loader, CatchAllMapper.class);
        byte[] named = transform(transformer, loader, Counter.class);
        assertThat(mapper).isNotNull();
        assertThat(named).isNotNull();
        assertThat(mentions(named, METHOD_ENTRY)).isTrue();
        assertThat(mentions(ClassFiles.of(Counter.class), METHOD_ENTRY)).isFalse();
        assertThat(woven).containsExactly(CatchAllMapper.class.getName(), Counter.class.getName());
        assertThat(transformer.servlets().seen()).as("a mapper and a named class are not servlets").isFalse();
    }

    @Test
    void theFirstWovenServletOrFilterIsSightedForTheRequestWarmUp() throws Exception {
        LimiterTransformer transformer = transformer(null);
        assertThat(transform(transformer, loader, FakeHttp.class)).isNull();
        assertThat(transform(transformer, loader, JakartaHello.class)).isNull();
        assertThat(transformer.servlets().seen()).as("nothing woven yet").isFalse();

        Thread warmUp = new Thread(() -> {
            try {
                transformer.servlets().await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        warmUp.setDaemon(true);
        warmUp.start();
        assertThat(transform(transformer, loader, JakartaPassFilter.class)).isNotNull();
        assertThat(transformer.servlets().seen()).isTrue();
        warmUp.join(10_000);
        assertThat(warmUp.isAlive()).as("the waiting thread went on").isFalse();
    }

    @Test
    void weavingIsSightedAtItsFirstSignAndNeverInAJvmThatWeavesNothing() {
        ClassLoader seesNoApi = new ClassLoader(null) {
        };
        byte[] plain = ClassFiles.of(Counter.class);

        LimiterTransformer idle = LimiterTransformer.create(new ThrottledLog(LOGGER, 0), woven::add);
        assertThat(idle.transform(seesNoApi, "methodtest/Counter", null, null, plain)).isNull();
        assertThat(idle.transform(seesNoApi, "org/acme/Batch", null, null, plain)).isNull();
        assertThat(idle.weaving().seen()).as("a plain class of a loader that sees no woven API").isFalse();

        LimiterTransformer grpc = LimiterTransformer.create(new ThrottledLog(LOGGER, 0), woven::add);
        assertThat(grpc.transform(seesNoApi, "io/grpc/stub/ClientCalls", null, null, plain)).isNull();
        assertThat(grpc.weaving().seen()).as("a class of the library gRPC's woven handlers belong to").isTrue();
        assertThat(woven).as("nothing woven yet").isEmpty();

        LimiterTransformer servlets = LimiterTransformer.create(new ThrottledLog(LOGGER, 0), woven::add);
        assertThat(transform(servlets, loader, Counter.class)).isNull();
        assertThat(servlets.weaving().seen()).as("a loader that sees the servlet API").isTrue();

        LimiterTransformer annotated = LimiterTransformer.create(new ThrottledLog(LOGGER, 0), woven::add);
        annotated.transform(seesNoApi, "annotest/Reports", null, null, ClassFiles.of("annotest/Reports"));
        assertThat(annotated.weaving().seen()).as("a class that may carry @Limit").isTrue();
    }

    @Test
    void aClassThatCannotBeWovenIsLoggedAndLeftUnchanged() {
        LimiterTransformer transformer = transformer(null);
        byte[] broken = ClassFiles.of(JakartaHello.class).clone();
        broken[8] = (byte) 0xff; // constant pool count: the file no longer parses
        broken[9] = (byte) 0xff;
        assertThat(transformer.transform(loader, "weavingtest/Broken", null, null, broken)).isNull();
        assertThat(woven).isEmpty();
        assertThat(logged).singleElement().satisfies(record ->
                assertThat(record.getMessage()).contains("could not instrument weavingtest.Broken"));
    }

    @Test
    void aNamedFrameworkClassWithoutTheWovenMethodIsLeftAloneAndSaysSo() {
        LimiterTransformer transformer = LimiterTransformer.create(new ThrottledLog(LOGGER, 0), woven::add);
        String context = "io/vertx/ext/web/impl/RoutingContextImpl";

        byte[] routing = transformer.transform(loader, context, null, null, RoutingEntryAdviceTest.contextClass());
        assertThat(routing).as("the class as the supported versions declare it").isNotNull();
        assertThat(logged).isEmpty();

        // the same name in a version without route(): the class runs unchanged, and the log says why
        byte[] renamed = transformer.transform(loader, context, null, null, ClassFiles.of(Counter.class));
        assertThat(renamed).isNull();
        assertThat(woven).containsExactly(context.replace('/', '.'));
        assertThat(logged).singleElement().satisfies(record -> {
            assertThat(record.getLevel()).isEqualTo(Level.WARNING);
            assertThat(record.getMessage()).isEqualTo("limiter: io.vertx.ext.web.impl.RoutingContextImpl declares"
                    + " none of the methods the agent weaves in it (vertx-web: route): this version is not"
                    + " supported, and what passes through it is not limited");
        });
    }
}
