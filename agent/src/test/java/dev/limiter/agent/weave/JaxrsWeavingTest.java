package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.method.MethodLimiter;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import methodtest.AccountResource;
import methodtest.ItemResource;
import methodtest.LateResource;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import weavingtest.FakeHttp;

/**
 * Weaves jakarta JAX-RS resource classes named by {@code jaxrs:} rules in this JVM with the agent's real
 * {@link LimiterTransformer} and {@link MethodLimiter}, and calls the resource methods directly, as a JAX-RS runtime would:
 * exact counts on one resource method with the others untouched, a 429 {@code WebApplicationException} with
 * {@code Retry-After}, {@code path-param:} keys (also through an annotated interface), request keys taken from
 * the servlet request in flight, and the error count when there is none.
 */
class JaxrsWeavingTest {

    private static final String RULES = """
            version: 1
            response:
              status: 429
              body: 'slow down: ${rule}'
            rules:
              - id: item-get
                match: { jaxrs: { class: methodtest.ItemResource, method: get } }
                key: path-param:id
                limit: 2
                window: 1h
              - id: item-any
                match: { jaxrs: { class: methodtest.ItemResource, method: 'by*' } }
                key: header:X-Api-Key
                limit: 1
                window: 1h
              - id: balance
                match: { jaxrs: { class: methodtest.AccountResource } }
                key: path-param:account
                limit: 1
                window: 1h
            """;

    private static final String LATE_RULE = """
              - id: late
                match: { jaxrs: { class: methodtest.LateResource } }
                key: path-param:name
                limit: 1
                window: 1h
            """;

    @TempDir
    static Path dir;

    private static Path file;

    private static RuleSetHolder holder;
    private static Instrumentation inst;
    private static LimiterTransformer transformer;

    @BeforeAll
    static void weave() throws Exception {
        file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        ThrottledLog log = new ThrottledLog("dev.limiter.test", 0);
        LimiterBridge.installMethods(new MethodLimiter(holder, log, new RequestViews(ServletLimiter.requestLookup())));
        inst = ByteBuddyAgent.install();
        transformer = LimiterTransformer.forRules(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
        holder.addListener(new Reweaver(holder, inst, log));
    }

    @AfterAll
    static void unweave() {
        transformer.reset(inst);
        LimiterBridge.installMethods(null);
    }

    @Test
    void aPathParamKeyLimitsEachValueAndTheRejectionIsA429WebApplicationException() {
        ItemResource items = new ItemResource();
        assertThat(items.get("1")).isEqualTo("item 1");
        assertThat(items.get("1")).isEqualTo("item 1");
        Throwable rejected = catchThrowable(() -> items.get("1"));
        assertThat(rejected).isInstanceOf(WebApplicationException.class);
        Response response = ((WebApplicationException) rejected).getResponse();
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(response.getHeaderString("Retry-After")).isNotBlank();
        assertThat(response.getEntity()).isEqualTo("slow down: item-get");
        assertThat(items.get("2")).isEqualTo("item 2");
        assertThat(LimiterBridge.rejectionResponse(rejected)).isSameAs(response);
        assertThat(LimiterBridge.rejectionResponse(new WebApplicationException(418))).isNull();
        assertThat(holder.current().rule("item-get").stats().rejected().sum()).isEqualTo(1);
    }

    @Test
    void aReloadThatAddsAJaxrsRuleForALoadedResourceClassReweavesItWithItsPathParamKey() throws Exception {
        LateResource late = new LateResource();
        for (int i = 0; i < 3; i++) {
            assertThat(late.get("ann")).isEqualTo("late ann");
        }
        Files.writeString(file, RULES + LATE_RULE);
        assertThat(holder.reload()).isTrue();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            catchThrowable(() -> late.get("ann"));
            assertThat(catchThrowable(() -> late.get("ann"))).isInstanceOf(WebApplicationException.class);
        });
        assertThat(late.get("bob")).as("another path parameter value").isEqualTo("late bob");
        Files.writeString(file, RULES);
        assertThat(holder.reload()).isTrue();
        assertThat(late.get("ann")).isEqualTo("late ann");
    }

    @Test
    void otherResourceMethodsAndNonResourceMethodsAreUntouched() {
        ItemResource items = new ItemResource();
        for (int i = 0; i < 20; i++) {
            assertThat(items.create("x")).isEqualTo("created x");
            assertThat(items.helper("x")).isEqualTo("helper x");
        }
    }

    @Test
    void aPathParamDeclaredOnTheInterfaceIsTheKeyOfTheImplementation() {
        AccountResource accounts = new AccountResource();
        assertThat(accounts.balance("alice")).isEqualTo("balance alice");
        assertThat(catchThrowable(() -> accounts.balance("alice"))).isInstanceOf(WebApplicationException.class);
        assertThat(accounts.balance("bob")).isEqualTo("balance bob");
    }

    @Test
    void requestKeysComeFromTheServletRequestInFlightAndAreAnErrorWithoutOne() {
        ItemResource items = new ItemResource();
        FakeHttp http = new FakeHttp("jakarta.servlet", "/api/items/by-owner/x");
        http.requestHeaders.put("X-Api-Key", "k1");
        LimiterBridge.servletEnter(http.request, http.response);
        try {
            assertThat(items.byOwner("x")).isEqualTo("owned by x");
            assertThat(catchThrowable(() -> items.byOwner("x"))).isInstanceOf(WebApplicationException.class);
            http.requestHeaders.put("X-Api-Key", "k2");
            assertThat(items.byOwner("x")).isEqualTo("owned by x");
        } finally {
            LimiterBridge.servletExit();
        }
        long errors = holder.current().rule("item-any").stats().errors().sum();
        // no servlet request on this thread now: the key is missing, counted, and on-error (allow) lets it run
        assertThat(items.byOwner("y")).isEqualTo("owned by y");
        assertThat(holder.current().rule("item-any").stats().errors().sum()).isEqualTo(errors + 1);
    }
}
