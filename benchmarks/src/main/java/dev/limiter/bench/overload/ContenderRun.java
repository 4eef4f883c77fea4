package dev.limiter.bench.overload;

import java.util.List;

/**
 * One contender's results: each measured phase in order (unloaded, the loads, and the recovery at capacity
 * after the overload), when each phase began on the sampler's clock, and the adaptive limit's samples (empty
 * for the others).
 */
record ContenderRun(Contender contender, List<PhaseResult> phases, long[] phaseStartNanos,
        List<AdaptiveLimitSampler.Sample> limits) {

    static final String UNLOADED = "0.1x";
    static final String OVERLOAD = "4x";
    static final String RECOVERY = "after";

    PhaseResult phase(String name) {
        return phases.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private int index(String name) {
        for (int i = 0; i < phases.size(); i++) {
            if (phases.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /**
     * Seconds into the recovery phase from which every whole second refused under 1 % of its requests; -1 if it
     * never settled.
     */
    int secondsToStopRefusing() {
        double[] share = phase(RECOVERY).rejectedShareBySecond();
        int settled = share.length;
        while (settled > 0 && share[settled - 1] < 0.01) {
            settled--;
        }
        return settled == share.length ? -1 : settled;
    }

    /** The last sampled adaptive limit before {@code phase} ended; -1 without samples. */
    int limitAtEndOf(String phase) {
        int i = index(phase);
        long end = i + 1 < phaseStartNanos.length ? phaseStartNanos[i + 1] : Long.MAX_VALUE;
        int last = -1;
        for (AdaptiveLimitSampler.Sample sample : limits) {
            if (sample.nanos() <= end) {
                last = sample.limit();
            }
        }
        return last;
    }

    /** The lowest adaptive limit sampled during {@code phase}; -1 without samples. */
    int lowestLimitIn(String phase) {
        int i = index(phase);
        long end = i + 1 < phaseStartNanos.length ? phaseStartNanos[i + 1] : Long.MAX_VALUE;
        int lowest = -1;
        for (AdaptiveLimitSampler.Sample sample : limits) {
            if (sample.nanos() >= phaseStartNanos[i] && sample.nanos() < end) {
                lowest = lowest < 0 ? sample.limit() : Math.min(lowest, sample.limit());
            }
        }
        return lowest;
    }

    /**
     * Seconds after the overload ended until the adaptive limit was back to at least {@code target}; -1 if it
     * was not within the recovery phase (or there are no samples).
     */
    double secondsToLimit(int target) {
        long start = phaseStartNanos[index(RECOVERY)];
        for (AdaptiveLimitSampler.Sample sample : limits) {
            if (sample.nanos() >= start && sample.limit() >= target) {
                return (sample.nanos() - start) / 1e9;
            }
        }
        return -1;
    }

    /** The adaptive limit at each whole second of {@code phase} (the last sample before it); empty without samples. */
    int[] limitBySecond(String phase) {
        if (limits.isEmpty()) {
            return new int[0];
        }
        int i = index(phase);
        int seconds = (int) Math.ceil(phases.get(i).seconds());
        int[] bySecond = new int[seconds];
        for (int s = 0; s < seconds; s++) {
            long at = phaseStartNanos[i] + s * 1_000_000_000L;
            int last = -1;
            for (AdaptiveLimitSampler.Sample sample : limits) {
                if (sample.nanos() <= at) {
                    last = sample.limit();
                }
            }
            bySecond[s] = last;
        }
        return bySecond;
    }
}
