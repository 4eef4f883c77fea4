package dev.limiter.agent.startup;

import dev.limiter.rules.RulesError;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.LinkOption;

/**
 * The one start-up line operators and tests look for:
 * {@code limiter <version> started: rules <file>, <n> rules}, or {@code ..., invalid rules} followed by one
 * {@code file:line:col: message} line per problem, or {@code ... (no such file: ...)} when there is no file.
 */
final class StartupBanner {

    private StartupBanner() {
    }

    static String of(String version, RuleSetHolder holder) {
        StringBuilder text = new StringBuilder("limiter ").append(version).append(" started: rules ")
                .append(holder.file());
        if (holder.lastError() == null) {
            int count = holder.current().rules().size();
            return text.append(", ").append(count).append(count == 1 ? " rule" : " rules").toString();
        }
        if (Files.notExists(holder.file(), LinkOption.NOFOLLOW_LINKS)) {
            // nothing at the path (not even a dangling link) is a set-up of its own: annotations only, and a file
            // that appears is read. NIO is loaded by then: the parse looked at the path with it
            return text.append(" (no such file: running with @Limit annotations only until it appears)").toString();
        }
        text.append(", invalid rules (running unprotected until the file is fixed)");
        for (RulesError error : holder.lastErrors()) {
            text.append('\n').append(error);
        }
        return text.toString();
    }
}
