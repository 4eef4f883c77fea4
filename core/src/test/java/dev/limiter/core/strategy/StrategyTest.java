package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each built-in's instance is made by name only when asked for: every constant must still yield its own. */
class StrategyTest {

    @Test
    void everyBuiltInGivesTheInstanceOfItsName() {
        for (Strategy builtIn : Strategy.values()) {
            assertThat(builtIn.get().name()).as(builtIn.name()).isEqualTo(builtIn.id());
            assertThat(Strategies.isBuiltIn(builtIn.get())).as(builtIn.name()).isTrue();
        }
    }
}
