package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.method.MethodSites;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The warm-ups are worth their time only if they take the path a real class takes through the transformer: the
 * synthetic servlet must pass the constant-pool check and actually be woven, in both namespaces, and the
 * synthetic service be woven and the described class read as a class a rule names is.
 */
class WeaverWarmUpTest {

    @ParameterizedTest
    @EnumSource(names = {"SERVLET_JAVAX", "SERVLET_JAKARTA"})
    void theSyntheticServletIsWovenLikeARealOne(WeaveTarget target) {
        byte[] servlet = WeaverWarmUp.syntheticServlet(target);

        assertThat(EntryPointNames.mayDeclare(servlet, target.bit)).isTrue();
        byte[] woven = EntryPointWeaver.weave(servlet, target.bit);

        assertThat(woven).isNotNull();
        assertThat(new String(woven, StandardCharsets.ISO_8859_1)).contains("dev/limiter/bootstrap/LimiterBridge");
    }

    @ParameterizedTest
    @EnumSource(names = {"SERVLET_JAVAX", "SERVLET_JAKARTA"})
    void theOtherNamespaceLeavesItAlone(WeaveTarget target) {
        WeaveTarget other =
                target == WeaveTarget.SERVLET_JAVAX ? WeaveTarget.SERVLET_JAKARTA : WeaveTarget.SERVLET_JAVAX;

        assertThat(EntryPointWeaver.weave(WeaverWarmUp.syntheticServlet(target), other.bit)).isNull();
    }

    @Test
    void theSyntheticServiceIsWovenAndTheJdkClassIsDescribedLikeANamedOne() {
        byte[] woven = MethodSiteWeaver.weave(WeaverWarmUp.syntheticService(), List.of(WeaverWarmUp.SERVICE_SITE));
        TypeDescription described = new TypePools().forTransformation(null, WeaverWarmUp.DESCRIBED,
                ClassFileLocator.ForClassLoader.ofBootLoader()).describe(WeaverWarmUp.DESCRIBED).resolve();

        assertThat(woven).isNotNull();
        assertThat(new String(woven, StandardCharsets.ISO_8859_1)).contains("methodEnter", "methodExit")
                .doesNotContain("sizeOf"); // an int cost is widened, not sized
        // ArrayList declares dozens of weavable methods, several taking a Collection
        assertThat(MethodSites.exercise(described)).isGreaterThan(50);
        WeaverWarmUp.methodSites(); // and the warm-up itself never throws
    }
}
