package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StatusCommandTest {

    private static StatusCommand.Options parse(String... args) throws CliFailure {
        String[] all = new String[args.length + 1];
        all[0] = "status";
        System.arraycopy(args, 0, all, 1, args.length);
        return StatusCommand.parse(all);
    }

    @Test
    void aPidAlone() throws CliFailure {
        assertThat(parse("1234")).isEqualTo(new StatusCommand.Options(1234, false, 0));
    }

    @Test
    void jsonAndWatchInAnyOrder() throws CliFailure {
        assertThat(parse("--json", "77")).isEqualTo(new StatusCommand.Options(77, true, 0));
        assertThat(parse("77", "--watch")).isEqualTo(new StatusCommand.Options(77, false, 2));
        assertThat(parse("77", "--watch", "5")).isEqualTo(new StatusCommand.Options(77, false, 5));
        assertThat(parse("--watch", "5", "77")).isEqualTo(new StatusCommand.Options(77, false, 5));
        assertThat(parse("--watch", "77")).isEqualTo(new StatusCommand.Options(77, false, 2));
        assertThat(parse("--watch=0.5", "--json", "77")).isEqualTo(new StatusCommand.Options(77, true, 0.5));
    }

    @Test
    void aJmxAddressInPlaceOfThePid() throws CliFailure {
        StatusCommand.Options options = parse("--jmx", "app:9010", "--watch", "5", "--json");
        assertThat(options.pid()).isZero();
        assertThat(options.json()).isTrue();
        assertThat(options.watchSeconds()).isEqualTo(5);
        assertThat(options.jmx().url().toString()).isEqualTo("service:jmx:rmi:///jndi/rmi://app:9010/jmxrmi");
        assertThat(parse("77").jmx()).isNull();
    }

    @Test
    void mistakesAreUsageErrors() {
        assertUsage("status takes a PID", "77", "88");
        assertUsage("status takes a PID", "77", "--verbose");
        assertUsage("missing PID");
        assertUsage("missing PID", "--json");
        assertUsage("is not a process id", "abc");
        assertUsage("is not a process id", "0");
        assertUsage("--watch takes seconds", "77", "--watch=0");
        assertUsage("--watch takes seconds", "77", "--watch=soon");
    }

    private static void assertUsage(String message, String... args) {
        assertThatThrownBy(() -> parse(args)).isInstanceOfSatisfying(CliFailure.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE)).hasMessageContaining(message);
    }
}
