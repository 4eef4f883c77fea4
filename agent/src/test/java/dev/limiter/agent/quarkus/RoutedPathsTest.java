package dev.limiter.agent.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Matrix parameters are no way around an {@code http:} rule on Vert.x; a plain path is returned as it is. */
class RoutedPathsTest {

    @Test
    void everySegmentIsCutAtItsFirstSemicolon() {
        assertThat(RoutedPaths.withoutMatrixParameters("/api/items/exact;v=2")).isEqualTo("/api/items/exact");
        assertThat(RoutedPaths.withoutMatrixParameters("/api;a=1;b=2/items;x/exact"))
                .isEqualTo("/api/items/exact");
        assertThat(RoutedPaths.withoutMatrixParameters("/api/items/;v")).isEqualTo("/api/items/");
    }

    @Test
    void aPathWithoutSemicolonsIsTheSameString() {
        String path = "/api/items/exact";
        assertThat(RoutedPaths.withoutMatrixParameters(path)).isSameAs(path);
        assertThat(RoutedPaths.withoutMatrixParameters(null)).isNull();
    }
}
