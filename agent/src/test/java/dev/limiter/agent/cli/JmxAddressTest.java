package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JmxAddressTest {

    private static String url(String text) throws CliFailure {
        return JmxAddress.url(text).toString();
    }

    @Test
    void hostAndPortIsTheJdkAgentsRmiConnector() throws CliFailure {
        assertThat(url("db-7.internal:9010")).isEqualTo("service:jmx:rmi:///jndi/rmi://db-7.internal:9010/jmxrmi");
        assertThat(url("127.0.0.1:1")).isEqualTo("service:jmx:rmi:///jndi/rmi://127.0.0.1:1/jmxrmi");
        assertThat(url("[::1]:9010")).isEqualTo("service:jmx:rmi:///jndi/rmi://[::1]:9010/jmxrmi");
    }

    @Test
    void aServiceUrlIsTakenAsItIs() throws CliFailure {
        assertThat(url("service:jmx:rmi:///jndi/rmi://app:9010/jmxrmi"))
                .isEqualTo("service:jmx:rmi:///jndi/rmi://app:9010/jmxrmi");
        assertThat(url("service:jmx:jmxmp://app:5555")).isEqualTo("service:jmx:jmxmp://app:5555");
    }

    @Test
    void anythingElseIsAUsageError() {
        for (String bad : new String[] {"app", "app:", ":9010", "app:0", "app:65536", "app:port", "::1:9010",
            "service:jmx:", "http://app:9010"}) {
            assertThatThrownBy(() -> JmxAddress.url(bad)).as(bad).isInstanceOfSatisfying(CliFailure.class,
                    e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE));
        }
    }

    @Test
    void theOptionsAreTakenOutOfTheArguments() throws CliFailure {
        List<String> args = new ArrayList<>(List.of("status", "--json", "--jmx", "app:9010", "--jmx-user=ops"));
        JmxAddress address = JmxAddress.extract(args);
        assertThat(address.url().toString()).isEqualTo("service:jmx:rmi:///jndi/rmi://app:9010/jmxrmi");
        assertThat(address.user()).isEqualTo("ops");
        assertThat(args).containsExactly("status", "--json");

        List<String> none = new ArrayList<>(List.of("status", "123"));
        assertThat(JmxAddress.extract(none)).isNull();
        assertThat(none).containsExactly("status", "123");

        assertThatThrownBy(() -> JmxAddress.extract(new ArrayList<>(List.of("status", "--jmx=a:1", "--jmx", "b:2"))))
                .hasMessageContaining("given twice");
    }
}
