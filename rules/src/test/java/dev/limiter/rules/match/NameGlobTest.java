package dev.limiter.rules.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NameGlobTest {

    @ParameterizedTest(name = "{0} ~ {1} -> {2}")
    @CsvSource({
        "com.acme.mail.*Mailer, com.acme.mail.SmtpMailer, true",
        "com.acme.mail.*Mailer, com.acme.mail.Mailer, true",
        "com.acme.mail.*Mailer, com.acme.mail.smtp.SmtpMailer, false",
        "com.acme.mail.*Mailer, com.acme.mail.SmtpMailerImpl, false",
        "com.acme.**, com.acme.a.b.C, true",
        "com.acme.**, com.acme, false",
        "com.acme.**, com.acmex.B, false",
        "com.acme.**.*Service, com.acme.x.y.OrderService, true",
        "com.acme.**.*Service, com.acme.OrderService, true",
        "com.acme.*, com.acme.Foo, true",
        "com.acme.*, com.acme.foo.Bar, false",
        "com.acme.Outer$Inner, com.acme.Outer$Inner, true",
        "com.acme.Outer$*, com.acme.Outer$1, true",
        "send*, sendWelcome, true",
        "send*, send, true",
        "send*, resend, false",
        "*, anything, true",
        "get?, getX, true",
        "get?, get, false",
        "a.?, a.., false",
        "**, a.b.C, true",
        "com.**.B, com.B, true",
        "com.**.B, com.x.y.B, true",
        "com.**.B, com.x.y.C, false",
    })
    void matchesNamesOnly(String glob, String name, boolean expected) {
        NameGlob compiled = NameGlob.compile(glob);
        assertThat(compiled.matches(name)).isEqualTo(expected);
        if (expected) { // the agent's pre-filter never rejects a name the glob matches
            assertThat(name.replace('.', '/')).startsWith(compiled.internalPrefix());
        }
    }

    @Test
    void exposesALiteralPrefixForCheapPreFilters() {
        NameGlob mailer = NameGlob.compile("com.acme.mail.*Mailer");
        assertThat(mailer.literalPrefix()).isEqualTo("com.acme.mail.");
        assertThat(mailer.isExact()).isFalse();
        assertThat(mailer.internalPrefix()).isEqualTo("com/acme/mail/");

        NameGlob exact = NameGlob.compile("com.acme.shop.OrderResource");
        assertThat(exact.isExact()).isTrue();
        assertThat(exact.literalPrefix()).isEqualTo("com.acme.shop.OrderResource");
        assertThat(exact.matches("com.acme.shop.OrderResource")).isTrue();
        assertThat(exact.matches("com.acme.shop.OrderResourceX")).isFalse();
        assertThat(NameGlob.compile("*Mailer").literalPrefix()).isEmpty();
    }

    @Test
    @org.junit.jupiter.api.Timeout(120) // a hang guard, not a speed test
    void manyWildcardsStayLinear() {
        NameGlob glob = NameGlob.compile("*a*a*a*a*a*a*a*a*a*a*a*a*b");
        String name = "a".repeat(5_000);
        assertThat(glob.matches(name)).isFalse(); // a backtracking matcher would never return
        assertThat(glob.matches(name + "b")).isTrue();
        NameGlob deep = NameGlob.compile("**.a.**.a.**.a.**.b");
        String dotted = "a.".repeat(3_000) + "c";
        assertThat(deep.matches(dotted)).isFalse();
    }

    @Test
    void rejectsMalformedGlobs() {
        assertThatThrownBy(() -> NameGlob.compile("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> NameGlob.compile("a.***")).hasMessageContaining("'***'");
        assertThatThrownBy(() -> NameGlob.compile("a..b")).hasMessageContaining("empty name segment");
        assertThatThrownBy(() -> NameGlob.compile("a.b.")).hasMessageContaining("empty name segment");
        assertThatThrownBy(() -> NameGlob.compile("a b")).hasMessageContaining("contains ' '");
        assertThatThrownBy(() -> NameGlob.compile("a.[B]")).hasMessageContaining("contains '['");
        assertThatThrownBy(() -> NameGlob.compile("com.**Service")).hasMessageContaining("whole name segment");
    }
}
