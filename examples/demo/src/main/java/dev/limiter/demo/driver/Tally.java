package dev.limiter.demo.driver;

import java.util.concurrent.atomic.LongAdder;

/** What one scenario's clients got back: answers by kind, counted from several client threads. */
final class Tally {

    final Scenario scenario;
    final LongAdder sent = new LongAdder();
    final LongAdder ok = new LongAdder();
    final LongAdder limited = new LongAdder();
    final LongAdder failed = new LongAdder();

    Tally(Scenario scenario) {
        this.scenario = scenario;
    }
}
