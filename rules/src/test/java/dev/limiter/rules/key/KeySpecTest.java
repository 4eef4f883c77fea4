package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import org.junit.jupiter.api.Test;

/** Every key kind parses, prints back as written, and is accepted only where the agent can compute it. */
class KeySpecTest {

    @Test
    void parsesEveryKind() {
        assertThat(KeySpec.parse("global")).isEqualTo(KeySpec.GLOBAL);
        assertThat(KeySpec.parse("ip")).isEqualTo(new KeySpec(KeySpec.Kind.IP, null, -1));
        assertThat(KeySpec.parse("header:X-Api-Key")).isEqualTo(new KeySpec(KeySpec.Kind.HEADER, "X-Api-Key", -1));
        assertThat(KeySpec.parse("param:tenant")).isEqualTo(new KeySpec(KeySpec.Kind.PARAM, "tenant", -1));
        assertThat(KeySpec.parse("principal")).isEqualTo(new KeySpec(KeySpec.Kind.PRINCIPAL, null, -1));
        assertThat(KeySpec.parse("path")).isEqualTo(new KeySpec(KeySpec.Kind.PATH, null, -1));
        assertThat(KeySpec.parse("path-param:id")).isEqualTo(new KeySpec(KeySpec.Kind.PATH_PARAM, "id", -1));
        assertThat(KeySpec.parse("arg:0")).isEqualTo(new KeySpec(KeySpec.Kind.ARG, null, 0));
        assertThat(KeySpec.parse("arg:254").index()).isEqualTo(254);
        for (String text : new String[] {"global", "ip", "header:X-Api-Key", "param:tenant", "principal", "path",
            "path-param:id", "arg:3"}) {
            assertThat(KeySpec.parse(text)).hasToString(text);
        }
    }

    @Test
    void rejectsMalformedKeys() {
        assertThatThrownBy(() -> KeySpec.parse("ip:x")).hasMessageContaining("takes no ':' argument");
        assertThatThrownBy(() -> KeySpec.parse("arg:-1")).hasMessageContaining("from 0 to 254");
        assertThatThrownBy(() -> KeySpec.parse("arg:255")).hasMessageContaining("from 0 to 254");
        assertThatThrownBy(() -> KeySpec.parse("arg:x")).hasMessageContaining("from 0 to 254");
        assertThatThrownBy(() -> KeySpec.parse("param:")).hasMessageContaining("needs an argument");
        assertThatThrownBy(() -> KeySpec.parse("header:a b")).hasMessageContaining("invalid character");
        assertThatThrownBy(() -> KeySpec.parse("principle")).hasMessageContaining("did you mean 'principal'?");
    }

    @Test
    void everyKindIsAcceptedByTheLoaderWhereItApplies() {
        RuleSet rules = TestRules.parse("version: 1\nrules:\n"
                + rule("g", "{ http: { path: /a } }", "global")
                + rule("i", "{ http: { path: /a } }", "ip")
                + rule("h", "{ http: { path: /a } }", "header:X-Api-Key")
                + rule("q", "{ http: { path: /a } }", "param:tenant")
                + rule("p", "{ http: { path: /a } }", "principal")
                + rule("pa", "{ http: { path: /a } }", "path")
                + rule("pp", "{ http: { path: '/u/{id}' } }", "path-param:id")
                + rule("a", "{ method: { class: a.B } }", "arg:1")
                + rule("ja", "{ jaxrs: { class: a.R } }", "arg:0")
                + rule("jh", "{ jaxrs: { class: a.R } }", "header:X-Api-Key")
                + rule("mp", "{ method: { class: a.B } }", "principal"));
        assertThat(rules.rules()).extracting(r -> r.key().kind()).containsExactly(KeySpec.Kind.GLOBAL,
                KeySpec.Kind.IP, KeySpec.Kind.HEADER, KeySpec.Kind.PARAM, KeySpec.Kind.PRINCIPAL, KeySpec.Kind.PATH,
                KeySpec.Kind.PATH_PARAM, KeySpec.Kind.ARG, KeySpec.Kind.ARG, KeySpec.Kind.HEADER,
                KeySpec.Kind.PRINCIPAL);
        assertThat(rules.rule("g").key()).isSameAs(KeySpec.GLOBAL);
    }

    private static String rule(String id, String match, String key) {
        return "  - id: " + id + "\n    match: " + match + "\n    key: '" + key + "'\n    limit: 1\n    window: 1s\n";
    }
}
