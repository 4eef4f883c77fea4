package dev.limiter.it.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.TestApp;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Several limits, plans, exemptions, cost and conditions on Tomcat 11 (jakarta); and an exemption by role, with
 * the users the Tomcat test app authenticates (HTTP Basic, preemptive).
 */
class Tomcat11PolicyTest extends AbstractPolicyServerTest {

    @Override
    TestApp app() {
        return TestApp.TOMCAT11_JAKARTA;
    }

    @Test
    void aUserInAnExemptRoleIsNotCountedAndOthersAre() throws Exception {
        String ops = basic("ops-user");
        String plain = basic("plain-user");
        assertThat(statuses(3, "/api/items/staff", "Authorization", ops)).as("role ops: exempt").containsOnly(200);
        assertThat(statuses(2, "/api/items/staff", "Authorization", plain)).as("no role").containsExactly(200, 429);
        assertThat(statuses(1, "/api/items/staff")).as("anonymous").containsExactly(429);
        assertThat(statuses(1, "/api/items/staff", "Authorization", ops)).as("still exempt").containsExactly(200);
        assertThat(attr("staff-exempt", "Exempt")).isEqualTo(4L);
        assertThat(attr("staff-exempt", "Allowed")).isEqualTo(1L);
        assertThat(attr("staff-exempt", "Rejected")).isEqualTo(2L);
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":pw").getBytes(StandardCharsets.UTF_8));
    }
}
