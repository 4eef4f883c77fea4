package dev.limiter.agent.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import org.junit.jupiter.api.Test;

/**
 * Site ids survive re-weaving (same loader, method and key argument) and differ otherwise; coverage says
 * whether a class's last weaving put in what a plan needs.
 */
class WovenSitesTest {

    /** Stands for a woven application class. */
    static class Target {

        public String send(String to, String cc) {
            return to + cc;
        }
    }

    private static PlannedSite plan(int keyIndex) {
        MethodShape send = new ClassShapes(Target.class.getClassLoader()).find(Target.class.getName())
                .method("send", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
        return new PlannedSite(SiteKind.METHOD, send, keyIndex, null, new String[0]);
    }

    @Test
    void reWeavingTheSameMethodInTheSameLoaderKeepsTheId() {
        ClassLoader loader = new URLClassLoader(new URL[0]);
        WovenSite first = WovenSites.register(loader, "test.Target", plan(0));
        WovenSite again = WovenSites.register(loader, "test.Target", plan(0));
        assertThat(again).isSameAs(first);
        assertThat(WovenSites.get(first.id)).isSameAs(first);
        assertThat(first.describeKey()).isEqualTo("arg:0");
    }

    @Test
    void anotherKeyArgumentOrAnotherLoaderIsAnotherSite() {
        ClassLoader loader = new URLClassLoader(new URL[0]);
        ClassLoader other = new URLClassLoader(new URL[0]);
        WovenSite byFirst = WovenSites.register(loader, "test.Target2", plan(0));
        WovenSite bySecond = WovenSites.register(loader, "test.Target2", plan(1));
        WovenSite elsewhere = WovenSites.register(other, "test.Target2", plan(0));
        WovenSite boot = WovenSites.register(null, "test.Target2", plan(0));
        assertThat(Set.of(byFirst.id, bySecond.id, elsewhere.id, boot.id)).hasSize(4);
        assertThat(WovenSites.register(null, "test.Target2", plan(0))).isSameAs(boot);
        assertThat(WovenSites.get(-1)).isNull();
        assertThat(WovenSites.get(Integer.MAX_VALUE)).isNull();
    }

    @Test
    void aRedeployDropsTheSitesOfTheCollectedLoader() {
        int oldId = registerInThrowAwayLoader();
        WeakReference<WovenSite> old = new WeakReference<>(WovenSites.get(oldId));
        await().atMost(java.time.Duration.ofSeconds(20)).until(() -> {
            System.gc();
            return old.get() == null || old.get().stale();
        });
        WovenSite redeployed = WovenSites.register(new URLClassLoader(new URL[0]), "test.Redeployed", plan(0));
        assertThat(redeployed.id).isNotEqualTo(oldId);
        assertThat(WovenSites.get(oldId)).isNull();
    }

    private static int registerInThrowAwayLoader() {
        return WovenSites.register(new URLClassLoader(new URL[0]), "test.Redeployed", plan(0)).id;
    }

    @Test
    void coverageIsWhatTheLatestWeavingOfTheClassPutIn() {
        ClassLoader loader = new URLClassLoader(new URL[0]);
        String first = plan(0).identity();
        String second = plan(1).identity();
        assertThat(WovenSites.covers(loader, "test.Target3", Set.of(first))).isFalse();
        assertThat(WovenSites.covers(loader, "test.Target3", Set.of())).isTrue();
        WovenSites.woven(loader, "test.Target3", Set.of(first));
        assertThat(WovenSites.covers(loader, "test.Target3", Set.of(first))).isTrue();
        assertThat(WovenSites.covers(loader, "test.Target3", Set.of(first, second))).isFalse();
        assertThat(WovenSites.covers(new URLClassLoader(new URL[0]), "test.Target3", Set.of(first))).isFalse();
        WovenSites.woven(loader, "test.Target3", Set.of(second));
        assertThat(WovenSites.covers(loader, "test.Target3", Set.of(first))).isFalse();
    }
}
