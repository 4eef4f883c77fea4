package dev.limiter.rules.response;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link HeaderText}: always the right text (whatever overwrote a slot, whichever thread wrote it), the same
 * string again for numbers seen before, and no allocation for an admitted request whose numbers repeat.
 */
class HeaderTextTest {

    /** The header values of a rule {@code id} of 100 per minute. */
    private static HeaderText text(String id) {
        return new HeaderText(id, "\"" + id + "\";q=100;w=60", "100");
    }

    @Test
    void everyPairAndNumberReadsBackExactlyEvenWhenSlotsAreOverwritten() {
        HeaderText text = text("api");
        for (int pass = 0; pass < 2; pass++) {
            for (long remaining = 0; remaining < 5_000; remaining++) { // 5x the slots: collisions overwrite
                for (long seconds = 0; seconds < 4; seconds++) {
                    assertThat(text.rateLimit(remaining, seconds)).isEqualTo("\"api\";r=" + remaining + ";t=" + seconds);
                }
                assertThat(text.remaining(remaining)).isEqualTo(Long.toString(remaining));
                assertThat(text.reset(1_764_000_000L + remaining)).isEqualTo(Long.toString(1_764_000_000L + remaining));
            }
        }
        assertThat(text.remaining(-1)).isEqualTo("-1");
        assertThat(text.rateLimit(999_999_999_999L, 86_400)).isEqualTo("\"api\";r=999999999999;t=86400");
    }

    @Test
    void aWindowOfRemainingValuesIsFormattedOnce() {
        HeaderText text = text("api");
        List<String> first = new ArrayList<>();
        for (long remaining = 99; remaining >= 0; remaining--) { // one key through a 100-per-second window
            first.add(text.rateLimit(remaining, 1));
        }
        int same = 0;
        for (long remaining = 99; remaining >= 0; remaining--) {
            same += text.rateLimit(remaining, 1) == first.get((int) (99 - remaining)) ? 1 : 0;
        }
        assertThat(same).as("strings reused in the second window").isEqualTo(100);
        String reset = text.reset(1_764_000_030L);
        assertThat(text.reset(1_764_000_030L)).isSameAs(reset);
        String seven = text.remaining(7);
        assertThat(text.remaining(7)).isSameAs(seven);
    }

    @Test
    void keysInTwoPhasesOfAWindowBothKeepTheirText() {
        HeaderText text = text("api");
        String early = text.rateLimit(42, 50); // a key that used 57 of 100 ten seconds into a minute
        String late = text.rateLimit(42, 5); // another that got there with 5 seconds left
        assertThat(text.rateLimit(42, 50)).isSameAs(early);
        assertThat(text.rateLimit(42, 5)).isSameAs(late);
        assertThat(text.rateLimit(42 + HeaderText.SLOTS, 5)).isEqualTo("\"api\";r=1066;t=5");
        assertThat(text.rateLimit(42, 5)).as("a large value does not evict a small one").isSameAs(late);
        assertThat(text.rateLimit(42 + HeaderText.SLOTS, 5)).as("large values are not kept")
                .isNotSameAs(text.rateLimit(42 + HeaderText.SLOTS, 5));
    }

    @Test
    void threadsRacingOnTheSameSlotsNeverSeeAWrongText() throws Exception {
        HeaderText text = text("race");
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<String> wrong = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 200_000 && wrong.get() == null; i++) {
                    long remaining = random.nextInt(3_000); // 3x the slots: constant overwriting
                    long seconds = random.nextInt(3);
                    String value = text.rateLimit(remaining, seconds);
                    if (!value.equals("\"race\";r=" + remaining + ";t=" + seconds)) {
                        wrong.set(remaining + "/" + seconds + " -> " + value);
                    }
                    String number = text.remaining(remaining);
                    if (!number.equals(Long.toString(remaining))) {
                        wrong.set(remaining + " -> " + number);
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(wrong.get()).as("a text that does not match its numbers").isNull();
    }

    @Test
    void admittedHeadersAllocateNothingOnceTheirNumbersWereSent() {
        RuleSet rules = TestRules.parse("version: 1\nresponse:\n  headers: both\nrules:\n"
                + "  - id: api\n    match: { http: { path: /api/** } }\n    limit: 100\n    window: 60s\n");
        Rule rule = rules.rule("api");
        ResponseSpec spec = rules.response();
        long[] out = new long[Outcome.SIZE];
        out[Outcome.LIMIT] = 100;
        out[Outcome.RESET_EPOCH_SECONDS] = 1_000_060;
        int[] lengths = new int[1];
        ResponseSpec.HeaderSink sink = (name, value) -> lengths[0] += value.length();
        for (int round = 0; round < 200; round++) { // the numbers of a minute-long window, many times (JIT)
            for (int remaining = 99; remaining >= 0; remaining--) {
                out[Outcome.REMAINING] = remaining;
                spec.headers(rule.headerText(), out, false, 1_000_000_000L + remaining * 600L, sink);
            }
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int calls = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int round = 0; round < 100; round++) {
            for (int remaining = 99; remaining >= 0; remaining--) {
                out[Outcome.REMAINING] = remaining;
                spec.headers(rule.headerText(), out, false, 1_000_000_000L + remaining * 600L, sink);
                calls++;
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(lengths[0]).isPositive();
        assertThat(allocated).as("bytes allocated by %d admitted responses (5 headers each)", calls)
                .isLessThan(calls / 4);
    }
}
