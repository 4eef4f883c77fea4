package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.tools.attach.AttachNotSupportedException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The error mapping, fed with what the Attach API of Java 17 and 25 actually says (messages copied from runs
 * against a nonexistent pid, a {@code sleep} process and a JVM with {@code -XX:+DisableAttachMechanism}).
 */
class AttachErrorsTest {

    @Test
    void aMissingProcessIsToldBeforeAttaching() {
        assertThatThrownBy(() -> AttachErrors.beforeAttach(99, false, null, "ops", 1))
                .isInstanceOfSatisfying(CliFailure.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.NO_PROCESS))
                .hasMessageStartingWith("no process with pid 99");
    }

    @Test
    void anotherUsersProcessIsToldBeforeAttachingUnlessWeAreRoot() {
        assertThatThrownBy(() -> AttachErrors.beforeAttach(99, true, "tomcat", "ops", 1))
                .isInstanceOfSatisfying(CliFailure.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.NOT_ATTACHABLE))
                .hasMessageContaining("belongs to user tomcat and this command runs as ops")
                .hasMessageContaining("sudo -u tomcat");
        assertThatCode(() -> AttachErrors.beforeAttach(99, true, "tomcat", "root", 1)).doesNotThrowAnyException();
        assertThatCode(() -> AttachErrors.beforeAttach(99, true, "ops", "ops", 1)).doesNotThrowAnyException();
        assertThatCode(() -> AttachErrors.beforeAttach(99, true, null, "ops", 1)).doesNotThrowAnyException();
    }

    @Test
    void ourOwnPidIsAUsageError() {
        assertThatThrownBy(() -> AttachErrors.beforeAttach(7, true, "ops", "ops", 7))
                .isInstanceOfSatisfying(CliFailure.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE));
    }

    @Test
    void aProcessThatVanishedIsNoProcessOnEitherJdk() {
        assertThat(AttachErrors.attachFailed(5, new IOException("No such process"), true).exitCode())
                .isEqualTo(ExitCode.NO_PROCESS);
        assertThat(AttachErrors.attachFailed(5, new IOException("non existent JVM pid: 5"), true).exitCode())
                .isEqualTo(ExitCode.NO_PROCESS);
        assertThat(AttachErrors.attachFailed(5, new IOException("anything"), false).exitCode())
                .isEqualTo(ExitCode.NO_PROCESS);
    }

    @Test
    void disabledAttachIsItsOwnCode() {
        CliFailure failure = AttachErrors.attachFailed(5,
                new AttachNotSupportedException("The VM does not support the attach mechanism"), true);
        assertThat(failure.exitCode()).isEqualTo(ExitCode.ATTACH_DISABLED);
        assertThat(failure).hasMessageContaining("-XX:+DisableAttachMechanism");
    }

    @Test
    void aProcessThatDoesNotAnswerIsNotAttachable() {
        CliFailure on17 = AttachErrors.attachFailed(5, new AttachNotSupportedException("Unable to open socket file "
                + "/tmp/.java_pid5: target process 5 doesn't respond within 10500ms or HotSpot VM not loaded"), true);
        CliFailure on25 = AttachErrors.attachFailed(5, new AttachNotSupportedException(
                "pid: 5 cmd: 'sleep 60' state is not ready to participate in attach handshake!"), true);
        CliFailure denied = AttachErrors.attachFailed(5, new IOException("Permission denied"), true);
        assertThat(on17.exitCode()).isEqualTo(ExitCode.NOT_ATTACHABLE);
        assertThat(on17).hasMessageContaining("not a Java process");
        assertThat(on25.exitCode()).isEqualTo(ExitCode.NOT_ATTACHABLE);
        assertThat(denied.exitCode()).isEqualTo(ExitCode.NOT_ATTACHABLE);
        assertThat(denied).hasMessageContaining("another user");
    }

    @Test
    void aRuntimeWithoutTheAttachApiIsToldSo() {
        assertThatThrownBy(() -> AttachApi.require(getClass().getClassLoader(), "com.sun.tools.attach.NoSuchThing"))
                .isInstanceOfSatisfying(CliFailure.class,
                        e -> assertThat(e.exitCode()).isEqualTo(ExitCode.NO_ATTACH_API))
                .hasMessageContaining("no Attach API").hasMessageContaining("--jmx HOST:PORT")
                .hasMessageContaining("-Dcom.sun.management.jmxremote.port");
        assertThatCode(AttachApi::require).doesNotThrowAnyException();
    }

    @Test
    void theAttachApiIsVisibleFromThePlatformLoaderTheAgentLoaderDelegatesTo() {
        assertThatCode(() -> AttachApi.require(ClassLoader.getPlatformClassLoader(), AttachApi.VIRTUAL_MACHINE))
                .doesNotThrowAnyException();
    }
}
