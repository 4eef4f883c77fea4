package dev.limiter.agent.startup;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.reload.ReloadListener;
import java.util.logging.Logger;

/**
 * Logs every reload: one INFO line when new rules are in force, a WARNING with every
 * {@code file:line:col: message} when a broken edit was refused (the previous rules stay in force).
 */
final class ReloadLog implements ReloadListener {

    private final Logger log;

    ReloadLog(Logger log) {
        this.log = log;
    }

    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        int count = current.rules().size();
        log.info("limiter: reloaded rules " + current.source() + ", " + count + (count == 1 ? " rule" : " rules"));
    }

    @Override
    public void reloadFailed(RulesException error, RuleSet current) {
        StringBuilder text = new StringBuilder("limiter: rules not reloaded, keeping the ")
                .append(current.rules().size()).append(" rules in force:");
        for (RulesError problem : error.errors()) {
            text.append('\n').append(problem);
        }
        log.warning(text.toString());
    }
}
