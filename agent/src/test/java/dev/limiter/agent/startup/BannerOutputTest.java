package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.LogCapture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class BannerOutputTest {

    @Test
    void isoTimeIsInstantsTextToTheMillisecondOverFourCenturies() {
        SplittableRandom random = new SplittableRandom(7);
        long[] edges = {0L, -1L, 951_782_400_000L /* 2000-02-29 */, 4_107_542_399_999L /* 2100-02-28 end */,
                1_798_761_599_999L, 1_798_761_600_000L /* 2027-01-01 */};
        for (long millis : edges) {
            assertThat(IsoTime.utc(millis)).isEqualTo(instantText(millis));
        }
        for (int i = 0; i < 100_000; i++) {
            long millis = random.nextLong(0L, 13_000_000_000_000L); // 1970 .. 2381
            assertThat(IsoTime.utc(millis)).as("%d", millis).isEqualTo(instantText(millis));
        }
    }

    @Test
    void aLoggerWithAHandlerOfItsOwnGetsTheBannerThroughJul() {
        Logger log = Logger.getLogger("dev.limiter.test.banner.handled");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<LogRecord> records;
        try (LogCapture capture = LogCapture.on(log)) {
            assertThat(BannerOutput.unconfigured(log, Level.INFO)).isFalse();
            BannerOutput.print(log, Level.INFO, "dev.limiter.Source", "limiter x started", new PrintStream(err));
            records = List.copyOf(capture.records);
        }
        assertThat(err.size()).isZero();
        assertThat(records).singleElement().satisfies(record -> {
            assertThat(record.getMessage()).isEqualTo("limiter x started");
            assertThat(record.getSourceClassName()).isEqualTo("dev.limiter.Source");
            assertThat(record.getLevel()).isEqualTo(Level.INFO);
        });
    }

    @Test
    void aLevelTheLoggerDropsIsNotWrittenEither() {
        Logger log = Logger.getLogger("dev.limiter.test.banner.quiet");
        log.setLevel(Level.WARNING);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        BannerOutput.print(log, Level.INFO, "dev.limiter.Source", "limiter x started", new PrintStream(err));
        assertThat(BannerOutput.unconfigured(log, Level.INFO)).isFalse();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private static String instantText(long millis) {
        String text = Instant.ofEpochMilli(millis).toString();
        // Instant leaves out a zero fraction; the banner always shows milliseconds
        return text.indexOf('.') < 0 ? text.replace("Z", ".000Z") : text;
    }
}
