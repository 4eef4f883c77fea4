package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class JmxStarterTest {

    private static final Logger LOG = Logger.getLogger("dev.limiter.test");

    @Test
    void theDelayIsMillisecondsWithADefaultForMissingOrNonsense() {
        assertThat(JmxStarter.delayMillis(null, LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis(" ", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis("0", LOG)).isZero();
        assertThat(JmxStarter.delayMillis(" 2500 ", LOG)).isEqualTo(2500);
        assertThat(JmxStarter.delayMillis("-1", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
        assertThat(JmxStarter.delayMillis("1s", LOG)).isEqualTo(JmxStarter.DEFAULT_DELAY_MILLIS);
    }
}
