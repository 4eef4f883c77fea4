package dev.limiter.agent.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The path {@code http:} rules see on Vert.x and WebFlux: matrix parameters and escapes are no way around a rule;
 * a plain path is returned as it is (no allocation).
 */
class RoutedPathsTest {

    @Test
    void everySegmentIsCutAtItsFirstSemicolon() {
        assertThat(RoutedPaths.ruleView("/api/items/exact;v=2")).isEqualTo("/api/items/exact");
        assertThat(RoutedPaths.ruleView("/api;a=1;b=2/items;x/exact")).isEqualTo("/api/items/exact");
        assertThat(RoutedPaths.ruleView("/api/items/;v")).isEqualTo("/api/items/");
    }

    @Test
    void escapesAreDecodedAsUtf8AfterTheCutSoAnEscapedSemicolonStays() {
        assertThat(RoutedPaths.ruleView("/api/caf%C3%A9")).isEqualTo("/api/café");
        assertThat(RoutedPaths.ruleView("/api/items/secret%3Bx=y")).isEqualTo("/api/items/secret;x=y");
        assertThat(RoutedPaths.ruleView("/api/a%20b;x=1/c")).isEqualTo("/api/a b/c");
        assertThat(RoutedPaths.ruleView("/api/100%/x%4")).as("broken escapes stay").isEqualTo("/api/100%/x%4");
        assertThat(RoutedPaths.ruleView("/api/a+b")).isEqualTo("/api/a+b");
    }

    @Test
    void aPathWithoutSemicolonsOrEscapesIsTheSameString() {
        String path = "/api/items/exact";
        assertThat(RoutedPaths.ruleView(path)).isSameAs(path);
        assertThat(RoutedPaths.ruleView(null)).isNull();
    }

    @Test
    void aWebfluxRawPathIsCutAndDecodedAsSpringRoutesIt() {
        assertThat(RoutedPaths.ruleView("/a;b/c;d=1;e/")).isEqualTo("/a/c/");
        assertThat(RoutedPaths.ruleView("/;x/a")).isEqualTo("//a");
        assertThat(RoutedPaths.ruleView("/a%3Bb;x=1")).isEqualTo("/a;b");
        assertThat(RoutedPaths.ruleView("/caf%C3%A9;v=1/x%2By")).isEqualTo("/café/x+y");
        assertThat(RoutedPaths.ruleView("/bad%zz;x")).isEqualTo("/bad%zz");
    }
}
