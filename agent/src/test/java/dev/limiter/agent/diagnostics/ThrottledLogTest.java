package dev.limiter.agent.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.LogCapture;
import java.util.List;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class ThrottledLogTest {

    @Test
    void writesOneRecordPerIntervalAndCountsTheRest() {
        Logger logger = Logger.getLogger("dev.limiter.test.throttled");
        logger.setUseParentHandlers(false);
        LogCapture capture = LogCapture.on(logger);
        List<LogRecord> records = capture.records;
        try {
            ThrottledLog log = new ThrottledLog("dev.limiter.test.throttled", 60_000);
            for (int i = 0; i < 1000; i++) {
                log.warn("failure " + i, new IllegalStateException());
            }
            assertThat(records).hasSize(1);
            assertThat(records.get(0).getMessage()).isEqualTo("failure 0");
            assertThat(records.get(0).getThrown()).isInstanceOf(IllegalStateException.class);
            assertThat(log.suppressed()).isEqualTo(999);

            ThrottledLog unthrottled = new ThrottledLog("dev.limiter.test.throttled", 0);
            unthrottled.warn("a", null);
            unthrottled.warn("b", null);
            assertThat(records).hasSize(3);
        } finally {
            capture.close();
        }
    }
}
