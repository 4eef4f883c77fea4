package dev.limiter.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class ObjectNamesTest {

    @Test
    void plainIdsAreUsedAsTheyAre() {
        ObjectName name = ObjectNames.rule("api-per-ip.v2_x");
        assertThat(name.toString()).isEqualTo("dev.limiter:type=Rule,name=api-per-ip.v2_x");
        assertThat(name.isPattern()).isFalse();
    }

    @Test
    void idsWithSpecialCharactersAreQuotedAndRoundTrip() {
        for (String id : new String[] {"a,b", "a=b", "a:b", "a*", "what?", "say \"hi\"", "back\\slash", ""}) {
            ObjectName name = ObjectNames.rule(id);
            assertThat(name.isPattern()).as(id).isFalse();
            assertThat(name.getKeyProperty("type")).isEqualTo("Rule");
            assertThat(ObjectName.unquote(name.getKeyProperty("name"))).isEqualTo(id);
        }
    }

    @Test
    void theLimiterName() {
        assertThat(ObjectNames.limiter().toString()).isEqualTo("dev.limiter:type=Limiter");
        assertThat(ObjectNames.allRules().apply(ObjectNames.rule("x"))).isTrue();
        assertThat(ObjectNames.allRules().apply(ObjectNames.limiter())).isFalse();
    }
}
