package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The warm-up is worth its time only if it takes the path a real servlet takes through the transformer: its
 * synthetic servlet must pass the constant-pool check and actually be woven, in both namespaces.
 */
class WeaverWarmUpTest {

    @ParameterizedTest
    @ValueSource(strings = {"servlet-javax", "servlet-jakarta"})
    void theSyntheticServletIsWovenLikeARealOne(String id) {
        WeaveTarget target = WeaveTarget.named(id);
        byte[] servlet = WeaverWarmUp.syntheticServlet(target);

        assertThat(EntryPointNames.mayDeclare(servlet, target.bit)).isTrue();
        byte[] woven = EntryPointWeaver.weave(servlet, target.bit);

        assertThat(woven).isNotNull();
        assertThat(new String(woven, StandardCharsets.ISO_8859_1)).contains("dev/limiter/bootstrap/LimiterBridge");
    }

    @ParameterizedTest
    @ValueSource(strings = {"servlet-javax", "servlet-jakarta"})
    void theOtherNamespaceLeavesItAlone(String id) {
        WeaveTarget target = WeaveTarget.named(id);
        WeaveTarget other = WeaveTarget.named(id.equals("servlet-javax") ? "servlet-jakarta" : "servlet-javax");

        assertThat(EntryPointWeaver.weave(WeaverWarmUp.syntheticServlet(target), other.bit)).isNull();
    }
}
