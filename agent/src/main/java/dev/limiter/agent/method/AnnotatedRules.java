package dev.limiter.agent.method;

import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.AnnotationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;

/**
 * The rules {@code @Limit} annotations declare, by id, as the agent meets them in the classes it loads.
 *
 * <p>Each annotation is compiled once ({@link AnnotationRule}, the rules file's own code) into a rule with its
 * own live state, which lives as long as the JVM: reloads of the file do not touch it. A rule of the rules file
 * with the same id replaces it while it is in the file ({@link #effective}); that lookup runs once per site and
 * snapshot ({@link SiteRules}), never per call.
 *
 * <p>A bad annotation is logged once, naming the class, method and attribute, and its method is not limited.
 * Several methods may share an id (a class-level annotation with an id, or the same id written twice) when their
 * values are equal: one rule, one budget. Different values under one id are a conflict: the first declaration
 * stays, the later method is logged and left unlimited.
 */
public final class AnnotatedRules {

    private static final Logger LOG = Logger.getLogger("dev.limiter");

    /** One annotation's rule and where it was first declared. */
    public record Declared(String id, Rule rule, String source, String values) {
    }

    private static final Map<String, Declared> BY_ID = new ConcurrentHashMap<>();
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();
    private static final List<Runnable> LISTENERS = new CopyOnWriteArrayList<>();

    private AnnotatedRules() {
    }

    /**
     * The rule of the annotation on {@code className#methodName} with {@code values}, compiled on first sight;
     * null if it is invalid or conflicts with an earlier one of the same id (logged once).
     */
    static Declared declare(String className, String methodName, Map<String, Object> values) {
        String where = className + "#" + methodName;
        AnnotationRule compiled;
        try {
            if (!values.containsKey("limit")) {
                report(where, "limit: missing (the class was compiled against another @Limit)");
                return null;
            }
            Object id = values.get("id");
            String ruleId = id == null || id.toString().isEmpty() ? AnnotationRule.defaultId(className, methodName)
                    : id.toString();
            Declared known = BY_ID.get(ruleId);
            if (known != null) {
                return sameValues(known, where, values);
            }
            compiled = AnnotationRule.compile(className, methodName, values, SystemClock.INSTANCE);
        } catch (RuntimeException e) {
            report(where, "cannot be read (" + e + ")");
            return null;
        }
        if (compiled.rule() == null) {
            report(where, String.join("; ", compiled.problems()));
            return null;
        }
        Declared fresh = new Declared(compiled.id(), compiled.rule(), "annotation " + where, compiled.values());
        Declared winner = BY_ID.putIfAbsent(fresh.id(), fresh);
        if (winner != null) {
            return sameValues(winner, where, values);
        }
        for (Runnable listener : LISTENERS) {
            try {
                listener.run();
            } catch (RuntimeException ignored) {
                // a listener (JMX) cannot undo a declaration
            }
        }
        return fresh;
    }

    /** {@code known} if the annotation on {@code where} declares the same rule, else null (a conflict, logged). */
    private static Declared sameValues(Declared known, String where, Map<String, Object> values) {
        if (known.source().equals("annotation " + where)) {
            return known;
        }
        // compiled only to compare its text: state is created but dropped (rare: a shared id)
        AnnotationRule again = AnnotationRule.compile(where.substring(0, where.indexOf('#')),
                where.substring(where.indexOf('#') + 1), values, SystemClock.INSTANCE);
        if (again.rule() != null && again.values().equals(known.values())) {
            return known;
        }
        report(where, again.rule() == null ? String.join("; ", again.problems())
                : "id: '" + known.id() + "' is declared with other values by the " + known.source());
        return null;
    }

    private static void report(String where, String problem) {
        if (REPORTED.add(where)) {
            LOG.warning("limiter: bad @Limit on " + where + ": " + problem + "; the method runs unlimited");
        }
    }

    /**
     * The rule in force for annotation id {@code id} under {@code rules}: the rules file's rule with that id if
     * there is one, else the annotation's; null if neither.
     */
    public static Rule effective(RuleSet rules, String id) {
        Rule fromFile = rules.rule(id);
        if (fromFile != null) {
            return fromFile;
        }
        Declared declared = BY_ID.get(id);
        return declared == null ? null : declared.rule();
    }

    /** The annotation's rule with this id, or null. */
    public static Declared declared(String id) {
        return BY_ID.get(id);
    }

    /** Every annotation id declared so far. */
    public static List<String> ids() {
        return new ArrayList<>(BY_ID.keySet());
    }

    /** Told (on the thread that loads the class) each time a new annotation rule is declared. */
    public static void addListener(Runnable listener) {
        LISTENERS.add(listener);
    }

    public static void removeListener(Runnable listener) {
        LISTENERS.remove(listener);
    }
}
