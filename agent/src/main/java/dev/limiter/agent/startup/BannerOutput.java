package dev.limiter.agent.startup;

import java.io.PrintStream;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Where the start-up banner goes: through {@code java.util.logging} like every message of the agent, except while
 * JUL still has the JDK's default set-up. Then the record could only reach JUL's {@code ConsoleHandler} on stderr,
 * whose {@code SimpleFormatter} renders its time with the zone rules and the locale's month names: in a JVM that
 * has not loaded them yet (an application that logs through Logback, or not yet at all) that is 50-100 ms of CPU
 * for one line (tzdb, CLDR, and the JIT after them). So the banner is written to stderr here, in
 * {@code SimpleFormatter}'s two-line layout but with the time in ISO-8601 UTC, which needs neither. Anything
 * configured (a JUL configuration file or class, another log manager, a handler, a filter, a format) sends it
 * through JUL as before.
 */
final class BannerOutput {

    private BannerOutput() {
    }

    /** {@code banner} at {@code level} from {@code source}: on {@code err} if JUL is unconfigured, else to {@code log}. */
    static void print(Logger log, Level level, String source, String banner, PrintStream err) {
        if (!unconfigured(log, level)) {
            log.logp(level, source, null, banner);
            return;
        }
        String newLine = System.lineSeparator();
        err.print(IsoTime.utc(System.currentTimeMillis()) + " " + source + newLine + level.getName() + ": " + banner
                + newLine);
        err.flush();
    }

    /**
     * True if a record of {@code level} on {@code log} would only reach the JDK's own {@code ConsoleHandler} with its
     * default {@code SimpleFormatter}: nothing configured between them.
     */
    static boolean unconfigured(Logger log, Level level) {
        LogManager manager = LogManager.getLogManager();
        if (manager.getClass() != LogManager.class || !log.isLoggable(level)
                || System.getProperty("java.util.logging.config.class") != null
                || System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.SimpleFormatter.format") != null
                || manager.getProperty("java.util.logging.SimpleFormatter.format") != null) {
            return false;
        }
        for (Logger logger = log; logger != null; logger = logger.getParent()) {
            Handler[] handlers = logger.getHandlers();
            if (logger.getFilter() != null) {
                return false;
            }
            if (logger.getParent() == null) {
                return handlers.length == 1 && handlers[0].getClass() == ConsoleHandler.class
                        && handlers[0].getFormatter().getClass() == SimpleFormatter.class
                        && handlers[0].getFilter() == null && handlers[0].getLevel().intValue() <= level.intValue();
            }
            if (handlers.length != 0 || !logger.getUseParentHandlers()) {
                return false;
            }
        }
        return false;
    }
}
