package dev.limiter.agent.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The path rules see for a request with {@code ;} segment parameters is the one Spring routes on. */
class WebfluxPathsTest {

    @Test
    void segmentParametersAreCutFromEverySegment() {
        assertThat(WebfluxPaths.withoutSegmentParameters("/api/items/exact;x=1")).isEqualTo("/api/items/exact");
        assertThat(WebfluxPaths.withoutSegmentParameters("/a;b/c;d=1;e/")).isEqualTo("/a/c/");
        assertThat(WebfluxPaths.withoutSegmentParameters("/;x/a")).isEqualTo("//a");
    }

    @Test
    void theRestIsDecodedAfterTheCutSoAnEncodedSemicolonStays() {
        assertThat(WebfluxPaths.withoutSegmentParameters("/a%3Bb;x=1")).isEqualTo("/a;b");
        assertThat(WebfluxPaths.withoutSegmentParameters("/caf%C3%A9;v=1/x%2By")).isEqualTo("/café/x+y");
        assertThat(WebfluxPaths.withoutSegmentParameters("/bad%zz;x")).isEqualTo("/bad%zz");
    }
}
