package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AgentArgsTest {

    @Test
    void aBarePathIsTheRulesFile() {
        assertThat(AgentArgs.parse("/etc/limiter/rules.yml"))
                .isEqualTo(new AgentArgs(Path.of("/etc/limiter/rules.yml"), false));
    }

    @Test
    void keyValuePairsSetRulesAndStrict() {
        assertThat(AgentArgs.parse("rules=conf/r.yml, strict=true"))
                .isEqualTo(new AgentArgs(Path.of("conf/r.yml"), true));
        assertThat(AgentArgs.parse("strict=FALSE,rules=r.yml")).isEqualTo(new AgentArgs(Path.of("r.yml"), false));
    }

    @Test
    void withoutArgumentsTheDefaultFileIsUsed() {
        String previous = System.getProperty("limiter.rules");
        System.clearProperty("limiter.rules");
        try {
            if (System.getenv("LIMITER_RULES") == null) {
                assertThat(AgentArgs.parse(null).rules()).isEqualTo(Path.of("rules.yml"));
                assertThat(AgentArgs.parse("  ").rules()).isEqualTo(Path.of("rules.yml"));
            }
            System.setProperty("limiter.rules", "from-property.yml");
            assertThat(AgentArgs.parse("strict=true")).isEqualTo(new AgentArgs(Path.of("from-property.yml"), true));
        } finally {
            if (previous == null) {
                System.clearProperty("limiter.rules");
            } else {
                System.setProperty("limiter.rules", previous);
            }
        }
    }

    @Test
    void prometheusNamesTheEndpointsAddress() {
        assertThat(AgentArgs.parse("rules=r.yml").prometheus()).as("off unless asked").isNull();
        assertThat(AgentArgs.parse("rules=r.yml,prometheus=127.0.0.1:9464"))
                .isEqualTo(new AgentArgs(Path.of("r.yml"), false, java.util.List.of(), "127.0.0.1:9464"));
        assertThat(AgentArgs.parse("prometheus=[::1]:0,rules=r.yml").prometheus()).isEqualTo("[::1]:0");
        assertThatThrownBy(() -> AgentArgs.parse("rules=r.yml,prometheus=9464"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("agent argument prometheus '9464' is not HOST:PORT (e.g. 127.0.0.1:9464)");
    }

    @Test
    void mistakesAreReportedNotIgnored() {
        assertThatThrownBy(() -> AgentArgs.parse("rules=r.yml,strickt=true"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strickt");
        assertThatThrownBy(() -> AgentArgs.parse("rules=r.yml,strict=yes"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("true or false");
        assertThatThrownBy(() -> AgentArgs.parse("rules=r.yml,=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key=value");
    }
}
