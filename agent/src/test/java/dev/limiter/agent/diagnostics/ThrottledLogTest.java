package dev.limiter.agent.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.LogCapture;
import java.util.List;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class ThrottledLogTest {

    /** Held strongly while a test runs: JUL keeps loggers weakly. */
    private Logger logger;

    /** The records of the logger {@code name}, kept from its parents' handlers. */
    private LogCapture captured(String name) {
        logger = Logger.getLogger(name);
        logger.setUseParentHandlers(false);
        return LogCapture.on(logger);
    }

    @Test
    void writesOneRecordPerIntervalAndCountsTheRest() {
        try (LogCapture capture = captured("dev.limiter.test.throttled")) {
            List<LogRecord> records = capture.records;
            ThrottledLog log = new ThrottledLog("dev.limiter.test.throttled", 60_000);
            for (int i = 0; i < 1000; i++) {
                log.warn(Warning.DECISION, "failure " + i, new IllegalStateException());
            }
            assertThat(records).hasSize(1);
            assertThat(records.get(0).getMessage()).isEqualTo("failure 0");
            assertThat(records.get(0).getThrown()).isInstanceOf(IllegalStateException.class);
            assertThat(log.suppressed(Warning.DECISION)).isEqualTo(999);

            ThrottledLog unthrottled = new ThrottledLog("dev.limiter.test.throttled", 0);
            unthrottled.warn(Warning.DECISION, "a", null);
            unthrottled.warn(Warning.DECISION, "b", null);
            assertThat(records).hasSize(3);
        }
    }

    @Test
    void aFloodOfOneKindNeitherHidesNorIsCountedInAnother() {
        try (LogCapture capture = captured("dev.limiter.test.throttled.kinds")) {
            List<LogRecord> records = capture.records;
            ThrottledLog log = new ThrottledLog("dev.limiter.test.throttled.kinds", 60_000);
            for (int i = 0; i < 100; i++) {
                log.warn(Warning.MISSING_KEY, "no key " + i, null);
            }
            log.warn(Warning.WEAVING, "could not instrument a.B", new IllegalStateException());
            log.warn(Warning.WEAVING, "could not instrument c.D", new IllegalStateException());
            log.warn(Warning.UNSUPPORTED, "this server is not supported", null);

            assertThat(records).extracting(LogRecord::getMessage)
                    .containsExactly("no key 0", "could not instrument a.B", "this server is not supported");
            assertThat(log.suppressed(Warning.MISSING_KEY)).isEqualTo(99);
            assertThat(log.suppressed(Warning.WEAVING)).isEqualTo(1);
            assertThat(log.suppressed(Warning.UNSUPPORTED)).isZero();
            assertThat(log.suppressed(Warning.DECISION)).isZero();
        }
    }

    @Test
    void theNextRecordOfAKindCountsOnlyWhatThatKindHeldBack() throws InterruptedException {
        try (LogCapture capture = captured("dev.limiter.test.throttled.counts")) {
            List<LogRecord> records = capture.records;
            ThrottledLog log = new ThrottledLog("dev.limiter.test.throttled.counts", 1_000);
            for (int i = 0; i < 5; i++) {
                log.warn(Warning.DECISION, "rule failed", null);
                log.warn(Warning.RELEASE, "permits released", null);
            }
            Thread.sleep(1_100); // past the interval: the next record of each kind is written
            log.warn(Warning.RELEASE, "permits released", null);
            log.warn(Warning.DECISION, "rule failed", null);
            assertThat(records).extracting(LogRecord::getMessage).containsExactly(
                    "rule failed", "permits released",
                    "permits released (4 similar messages suppressed)", "rule failed (4 similar messages suppressed)");
        }
    }
}
