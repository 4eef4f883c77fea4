package dev.limiter.agent.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what a JUL logger publishes while attached, so a test can assert the agent's own log lines. */
public final class LogCapture extends Handler implements AutoCloseable {

    public final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger;

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    public static LogCapture on(Logger logger) {
        LogCapture capture = new LogCapture(logger);
        logger.addHandler(capture);
        return capture;
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
        // kept in memory
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
