package dev.limiter.rules.reload;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;

/**
 * Told about every reload, so the agent can instrument classes that new {@code method:} / {@code jaxrs:} rules
 * name (limits themselves need no listener: they are read from the snapshot on every call).
 *
 * <p>Called on the thread that reloaded (the watcher's daemon thread, or a JMX thread), after the new set is
 * published, one reload at a time, in order. An exception thrown here is swallowed: it cannot undo a reload.
 */
@FunctionalInterface
public interface ReloadListener {

    /** A new rule set is in force. */
    void reloaded(RuleSet previous, RuleSet current);

    /** A reload failed; {@code current} stays in force. */
    default void reloadFailed(RulesException error, RuleSet current) {
    }
}
