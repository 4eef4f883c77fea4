package dev.limiter.core.strategy.adaptive;

/**
 * The gradient of the no-load latency over the measured one, as Netflix's Gradient2 and Envoy's adaptive
 * concurrency use it: {@code gradient = clamp(1.5 x noLoad / mean, 0.5, 1)}; the limit follows
 * {@code limit x gradient}, and grows by {@code sqrt(limit)} (the queue it may build) while latency stays within
 * the tolerance and calls reached the limit.
 *
 * <p>Where Netflix's Gradient2 lets its long-term latency drift up with the measured one (so under a modest
 * overload the gradient returns to 1 and the queue allowance is added window after window), the reference here is the bucket's no-load estimate, which congested windows cannot raise; and growth needs
 * calls that reached the limit, so a lightly loaded service's limit does not creep up unused. A decrease is
 * smoothed (a fifth of the step per window), so one slow window cannot halve the limit; growth is not, so a
 * recovered service gets its limit back within a few windows.
 */
final class GradientAlgorithm implements LimitAlgorithm {

    static final GradientAlgorithm INSTANCE = new GradientAlgorithm();

    /** How much slower than no-load a window may be before the limit falls. */
    static final double TOLERANCE = 1.5;
    static final double SMOOTHING = 0.2;

    private GradientAlgorithm() {
    }

    @Override
    public double next(double limit, double meanNanos, double noLoadNanos, boolean reachedLimit) {
        double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * noLoadNanos / meanNanos));
        double target = limit * gradient;
        if (gradient >= 1.0 && reachedLimit) {
            target += Math.sqrt(limit);
        }
        return target < limit ? limit + (target - limit) * SMOOTHING : target;
    }
}
