package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.agent.method.SiteToWeave;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import weavingtest.TrickyMethods;

/**
 * The ASM advice of plain and resource methods, loaded for real: the woven class is defined in its own loader
 * (so the JVM verifies its frames, with the advice's local in every one) and run against a recording bridge.
 * Every call must enter once with the right site, key and cost, exit exactly once with its token on every way
 * out, return what the method returns, and throw the rejection without running the body.
 */
class MethodSiteWeaverTest {

    private static final String TRICKY = TrickyMethods.class.getName();

    private final List<String> events = new ArrayList<>();
    private final Exception rejection = new IllegalStateException("rejected");
    private boolean reject;
    private boolean failEnter;

    @BeforeEach
    void record() {
        LimiterBridge.installMethods(new MethodDelegate() {
            @Override
            public Object onMethodEnter(int site, Object keyArgument, long cost) {
                if (failEnter) {
                    throw new IllegalStateException("a failing limiter");
                }
                events.add("enter " + site + " " + keyArgument + " " + cost);
                return reject ? rejection : "token" + site;
            }

            @Override
            public void onMethodExit(int site, Object token) {
                events.add("exit " + site + " " + token);
            }

            @Override
            public Object rejectionResponse(Object exception) {
                return null;
            }
        });
    }

    @AfterEach
    void uninstall() {
        LimiterBridge.installMethods(null);
    }

    private static List<SiteToWeave> allSites() {
        return List.of(
                new SiteToWeave("sum", "([I)I", 1, -1, 0),
                new SiteToWeave("wide", "(DJLjava/lang/String;)J", 2, 2, 1),
                new SiteToWeave("keyedByDouble", "(JD)D", 3, 1, -1),
                new SiteToWeave("flag", "(Z)Z", 4, 0, -1),
                new SiteToWeave("half", "(F)F", 5, 0, -1),
                new SiteToWeave("first", "(Ljava/lang/String;)C", 6, 0, -1),
                new SiteToWeave("withHandlers", "(Ljava/lang/String;)Ljava/lang/String;", 7, 0, -1),
                new SiteToWeave("throwsDeep", "(I)V", 8, -1, -1),
                new SiteToWeave("earlyReturns", "(I)V", 9, 0, -1),
                new SiteToWeave("costOf", "(Ljava/util/List;S)I", 10, -1, 0),
                new SiteToWeave("syncCounter", "(J)J", 11, 0, 0));
    }

    private static Class<?> woven() throws ClassNotFoundException {
        return woven(allSites());
    }

    private static Class<?> woven(List<SiteToWeave> sites) throws ClassNotFoundException {
        byte[] classFile = MethodSiteWeaver.weave(ClassFiles.of(TrickyMethods.class), sites);
        assertThat(classFile).isNotNull();
        return ClassFiles.define(TRICKY, classFile);
    }

    private static Object call(Object target, String name, Object... args) throws Throwable {
        for (Method method : target instanceof Class<?> type ? type.getMethods() : target.getClass().getMethods()) {
            if (method.getName().equals(name)) {
                try {
                    return method.invoke(target instanceof Class<?> ? null : target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new IllegalArgumentException(name);
    }

    @SuppressWarnings("unchecked")
    private static List<String> trace(Object tricky) throws ReflectiveOperationException {
        return (List<String>) tricky.getClass().getField("trace").get(tricky);
    }

    @Test
    void everyReturnTypeReturnsItsValueAndExitsOnceWithTheToken() throws Throwable {
        Class<?> type = woven();
        Object tricky = type.getDeclaredConstructor().newInstance();

        assertThat(call(tricky, "sum", (Object) new int[] {1, 2, 3})).isEqualTo(6);
        assertThat(call(type, "wide", 2.0, 10L, "k")).isEqualTo(16L);
        assertThat(call(type, "keyedByDouble", 7L, 1.5)).isEqualTo(3.0);
        assertThat(call(tricky, "flag", true)).isEqualTo(false);
        assertThat(call(tricky, "half", 3f)).isEqualTo(1.5f);
        assertThat(call(tricky, "first", "xyz")).isEqualTo('x');
        assertThat(call(type, "costOf", List.of("a", "b"), (short) 4)).isEqualTo(8);
        assertThat(call(tricky, "syncCounter", 41L)).isEqualTo(42L);

        assertThat(events).containsExactly(
                "enter 1 null 3", "exit 1 token1",            // an array's length is the cost
                "enter 2 k 10", "exit 2 token2",              // a long cost after a double; a key after both
                "enter 3 1.5 1", "exit 3 token3",             // a double key, boxed
                "enter 4 true 1", "exit 4 token4",
                "enter 5 3.0 1", "exit 5 token5",
                "enter 6 xyz 1", "exit 6 token6",
                "enter 10 null 2", "exit 10 token10",        // a collection's size is the cost
                "enter 11 41 41", "exit 11 token11");        // the same long as key and cost
    }

    @Test
    void ownHandlersFinallyAndEarlyReturnsRunAsWrittenAndExitOnce() throws Throwable {
        Object tricky = woven().getDeclaredConstructor().newInstance();

        assertThat(call(tricky, "withHandlers", "abc")).isEqualTo("ABC");
        assertThat(call(tricky, "withHandlers", (Object) null)).isEqualTo("none");
        call(tricky, "earlyReturns", 0);
        call(tricky, "earlyReturns", 5);
        call(tricky, "earlyReturns", 2);

        assertThat(trace(tricky)).containsExactly("try", "finally", "synchronized",
                "try", "caught own", "finally", "synchronized", "zero", "three", "end");
        assertThat(events).containsExactly(
                "enter 7 abc 1", "exit 7 token7", "enter 7 null 1", "exit 7 token7",
                "enter 9 0 1", "exit 9 token9", "enter 9 5 1", "exit 9 token9", "enter 9 2 1", "exit 9 token9");
    }

    @Test
    void aThrowFromDeepInsideExitsEveryWovenFrameOnceAndPropagates() throws Throwable {
        Object tricky = woven().getDeclaredConstructor().newInstance();

        assertThatThrownBy(() -> call(tricky, "throwsDeep", 2)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("deep");

        assertThat(events).containsExactly("enter 8 null 1", "enter 8 null 1", "enter 8 null 1",
                "exit 8 token8", "exit 8 token8", "exit 8 token8");
    }

    @Test
    void aRejectionIsThrownBeforeTheBodyAndNothingExits() throws Throwable {
        Object tricky = woven().getDeclaredConstructor().newInstance();
        reject = true;

        assertThatThrownBy(() -> call(tricky, "withHandlers", "abc")).isSameAs(rejection);
        assertThatThrownBy(() -> call(tricky, "syncCounter", 1L)).isSameAs(rejection);

        assertThat(trace(tricky)).isEmpty();
        assertThat(events).containsExactly("enter 7 abc 1", "enter 11 1 1");
    }

    @Test
    void aFailingLimiterRunsTheBodyAsIfNothingWasWoven() throws Throwable {
        Object tricky = woven().getDeclaredConstructor().newInstance();
        failEnter = true;

        assertThat(call(tricky, "withHandlers", "abc")).isEqualTo("ABC");
        assertThat(call(tricky, "syncCounter", 1L)).isEqualTo(2L);

        assertThat(trace(tricky)).containsExactly("try", "finally", "synchronized");
        assertThat(events).isEmpty(); // no token: the exits pass null, which the bridge ignores
    }

    @Test
    void methodsNoSiteNamesAreLeftAsTheyWere() throws Throwable {
        assertThat(MethodSiteWeaver.weave(ClassFiles.of(TrickyMethods.class), List.of())).isNull();
        Object tricky = woven(List.of(new SiteToWeave("flag", "(Z)Z", 4, -1, -1)))
                .getDeclaredConstructor().newInstance();

        assertThat(call(tricky, "first", "q")).isEqualTo('q');
        assertThat(call(tricky, "flag", false)).isEqualTo(true);

        assertThat(events).containsExactly("enter 4 null 1", "exit 4 token4");
    }
}
