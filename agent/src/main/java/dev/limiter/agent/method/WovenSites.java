package dev.limiter.agent.method;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every woven site, by id, and what each woven class currently covers.
 *
 * <p>Ids index a copy-on-write array: the call path reads one volatile array and one element. Registration
 * happens while classes are (re)woven, under this class's lock. Re-weaving the same method in the same loader
 * with the same key argument (a retransformation) gets its old id back, so code woven before and after agrees.
 *
 * <p>Coverage ({@link #woven}, {@link #covers}) records which sites the last transformation of a class put in,
 * so a reload re-weaves only classes that lack a method or key argument the new rules need. Loaders are held
 * weakly, so an undeployed application is not kept alive; its sites are dropped when the same methods are woven
 * again in a new loader (a redeploy), and their ids are not reused.
 */
final class WovenSites {

    private static volatile WovenSite[] byId = new WovenSite[64];
    private static int count;
    private static final Map<String, List<WovenSite>> BY_IDENTITY = new HashMap<>();
    private static final Map<String, List<Coverage>> COVERAGE = new HashMap<>();

    private WovenSites() {
    }

    /** The site with this id, or null. Call path: no lock, no allocation. */
    static WovenSite get(int id) {
        WovenSite[] sites = byId;
        return id >= 0 && id < sites.length ? sites[id] : null;
    }

    /** The site for a planned method in {@code loader}: the existing one if it was woven before, else a new one. */
    static synchronized WovenSite register(ClassLoader loader, String className, PlannedSite plan) {
        String identity = className + ' ' + plan.identity();
        List<WovenSite> same = BY_IDENTITY.computeIfAbsent(identity, k -> new ArrayList<>(1));
        WovenSite[] known = byId;
        for (WovenSite site : same) {
            if (site.stale()) {
                known[site.id] = null;
            }
        }
        same.removeIf(WovenSite::stale);
        for (WovenSite site : same) {
            if (site.loadedBy(loader)) {
                return site;
            }
        }
        WovenSite site = new WovenSite(count, plan.kind(), loader, className, plan.method().name(),
                plan.method().descriptor(), plan.keyIndex(), plan.keyName(), plan.declaredExceptions(),
                plan.annotationId(), plan.costIndex());
        WovenSite[] sites = byId;
        if (count == sites.length) {
            sites = Arrays.copyOf(sites, sites.length * 2);
        }
        sites[count++] = site;
        byId = sites;
        same.add(site);
        return site;
    }

    /** Records the plan identities the latest transformation of {@code className} in {@code loader} wove in. */
    static synchronized void woven(ClassLoader loader, String className, Set<String> identities) {
        List<Coverage> all = COVERAGE.computeIfAbsent(className, k -> new ArrayList<>(1));
        all.removeIf(c -> c.stale() || c.loadedBy(loader));
        all.add(new Coverage(loader, identities));
    }

    /** True if the latest transformation of the class wove in every one of {@code identities}. */
    static synchronized boolean covers(ClassLoader loader, String className, Set<String> identities) {
        List<Coverage> all = COVERAGE.get(className);
        if (all == null) {
            return identities.isEmpty();
        }
        for (Coverage coverage : all) {
            if (coverage.loadedBy(loader)) {
                return coverage.identities.containsAll(identities);
            }
        }
        return identities.isEmpty();
    }

    /** Number of sites registered so far. */
    static synchronized int size() {
        return count;
    }

    /** What one transformation of a class in one loader wove in. */
    private static final class Coverage {

        final WeakReference<ClassLoader> loader;
        final boolean bootLoader;
        final Set<String> identities;

        Coverage(ClassLoader loader, Set<String> identities) {
            this.loader = new WeakReference<>(loader);
            this.bootLoader = loader == null;
            this.identities = Set.copyOf(identities);
        }

        boolean loadedBy(ClassLoader candidate) {
            return bootLoader ? candidate == null : candidate != null && loader.get() == candidate;
        }

        boolean stale() {
            return !bootLoader && loader.get() == null;
        }
    }
}
