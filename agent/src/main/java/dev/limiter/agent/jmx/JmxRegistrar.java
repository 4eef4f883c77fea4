package dev.limiter.agent.jmx;

import dev.limiter.agent.method.AnnotatedRules;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Keeps the MBeans in step with the rules: registers {@code dev.limiter:type=Limiter}, one
 * {@code dev.limiter:type=Rule,name=<id>} per rule in force (the file's and those of {@code @Limit} annotations
 * met so far, a file rule standing for the annotation of its id), and follows every reload and annotation, so rule MBeans appear
 * and disappear with their rules while an id that survives keeps its MBean (and its counters, which live in
 * the rule's state). It also owns the rules' top-rejected-keys summaries ({@link TopKeys}): one per rule in
 * force, dropped with the rule.
 *
 * <p>{@link #sync()} is synchronized and always converges on {@link RuleSetHolder#current()}, so a reload racing
 * with registration cannot leave a stale MBean. Runs on the reloading thread (the watcher or a JMX thread),
 * never on the request path.
 */
public final class JmxRegistrar implements ReloadListener, AutoCloseable {

    private final MBeanServer server;
    private final RuleSetHolder holder;
    private final ObjectName limiterName;
    private final LimiterControl limiter;
    private final Map<String, RuleStats> registered = new LinkedHashMap<>();
    /** Syncs when an annotation declares a new rule, off the thread loading the annotated class. */
    private final AnnotationSync annotations = new AnnotationSync(this);
    private boolean closed;

    private JmxRegistrar(MBeanServer server, RuleSetHolder holder) {
        this.server = server;
        this.holder = holder;
        this.limiterName = ObjectNames.limiter();
        this.limiter = new LimiterControl(holder, limiterName);
    }

    /**
     * Registers the MBeans of {@code holder}'s rules on {@code server} and follows its reloads until
     * {@link #close()}.
     *
     * @throws JMException if the names are taken (another limiter in this JVM) or the server refuses them
     */
    public static JmxRegistrar register(MBeanServer server, RuleSetHolder holder) throws JMException {
        JmxRegistrar registrar = new JmxRegistrar(server, holder);
        server.registerMBean(registrar.limiter, registrar.limiterName);
        holder.addListener(registrar);
        AnnotatedRules.addListener(registrar.annotations);
        registrar.sync();
        return registrar;
    }

    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        sync();
        limiter.reloaded(current);
    }

    @Override
    public void reloadFailed(RulesException error, RuleSet current) {
        limiter.reloadFailed(error, current);
    }

    /** Registers MBeans for new rule ids, unregisters those of removed ids; ids that stay keep theirs. */
    synchronized void sync() {
        if (closed) {
            return;
        }
        RuleSet current = holder.current();
        Set<String> ids = new HashSet<>();
        List<Rule> rules = new ArrayList<>(current.rules());
        for (String id : AnnotatedRules.ids()) {
            if (current.rule(id) == null) {
                rules.add(AnnotatedRules.declared(id).rule());
            }
        }
        for (Rule rule : rules) {
            String id = rule.id();
            ids.add(id);
            RuleStats stats = rule.stats();
            RuleStats before = registered.get(id);
            if (before == null) {
                if (register(id)) {
                    TopKeys.track(stats);
                    registered.put(id, stats);
                }
            } else if (before != stats) {
                // same id, new state (e.g. the strategy changed): new counters, new summary
                TopKeys.untrack(before);
                TopKeys.track(stats);
                registered.put(id, stats);
            }
        }
        for (Iterator<Map.Entry<String, RuleStats>> it = registered.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, RuleStats> entry = it.next();
            if (!ids.contains(entry.getKey())) {
                unregister(ObjectNames.rule(entry.getKey()));
                TopKeys.untrack(entry.getValue());
                it.remove();
            }
        }
    }

    /** False if the server refused the name (taken by someone else): the next sync tries again. */
    private boolean register(String id) {
        try {
            server.registerMBean(new RuleStandardMBean(new RuleControl(holder, id)), ObjectNames.rule(id));
            return true;
        } catch (JMException e) {
            return false;
        }
    }

    private void unregister(ObjectName name) {
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (JMException e) {
            // already gone: nothing to undo
        }
    }

    /** Stops following reloads and unregisters every MBean this registrar registered. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        holder.removeListener(this);
        AnnotatedRules.removeListener(annotations);
        annotations.close();
        for (Map.Entry<String, RuleStats> entry : registered.entrySet()) {
            unregister(ObjectNames.rule(entry.getKey()));
            TopKeys.untrack(entry.getValue());
        }
        registered.clear();
        unregister(limiterName);
    }
}
