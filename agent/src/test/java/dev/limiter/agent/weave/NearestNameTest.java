package dev.limiter.agent.weave;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NearestNameTest {

    private static final Class<?>[] LOADED = {String.class, java.util.ArrayList.class, java.util.HashMap.class,
        java.util.concurrent.ConcurrentHashMap.class, NearestNameTest.class};

    @Test
    void aTypoFindsTheClassItMeant() {
        assertThat(NearestName.among("java.util.ArayList", LOADED)).isEqualTo("java.util.ArrayList");
        assertThat(NearestName.among("java.util.concurrent.ConcurentHashMap", LOADED))
                .isEqualTo("java.util.concurrent.ConcurrentHashMap");
    }

    @Test
    void theSameSimpleNameInAnotherPackageIsNearest() {
        assertThat(NearestName.among("com.acme.HashMap", LOADED)).isEqualTo("java.util.HashMap");
        assertThat(NearestName.among("NearestNameTest", LOADED)).isEqualTo(NearestNameTest.class.getName());
    }

    @Test
    void nothingNearIsNull() {
        assertThat(NearestName.among("com.acme.Pricing", LOADED)).isNull();
        assertThat(NearestName.among("java.util.SomethingElseEntirely", LOADED)).isNull();
    }

    @Test
    void distanceStopsPastTheLimit() {
        assertThat(NearestName.distance("kitten", "sitting", 10)).isEqualTo(3);
        assertThat(NearestName.distance("a", "abcdefghijkl", 3)).isEqualTo(4);
    }
}
