package dev.limiter.core.strategy.adaptive;

/**
 * TCP Vegas' estimate of the queue, as Netflix's {@code VegasLimit} uses it: {@code queue = limit x (1 - noLoad /
 * mean)} calls wait somewhere; below {@code 3 log10(limit)} the limit grows by {@code log10(limit)} (by
 * {@code 6 log10(limit)} when almost nothing queues), above {@code 6 log10(limit)} it falls by {@code log10(limit)}.
 * It moves in small steps and holds steadier than the gradient, and reacts more slowly to a sudden overload.
 * Growth needs calls that reached the limit, as for the gradient.
 */
final class VegasAlgorithm implements LimitAlgorithm {

    static final VegasAlgorithm INSTANCE = new VegasAlgorithm();

    private VegasAlgorithm() {
    }

    @Override
    public double next(double limit, double meanNanos, double noLoadNanos, boolean reachedLimit) {
        double queue = Math.max(0, limit * (1 - noLoadNanos / meanNanos));
        double step = Math.max(1, Math.log10(limit));
        if (queue > 6 * step) {
            return limit - step;
        }
        if (!reachedLimit || queue >= 3 * step) {
            return limit;
        }
        return queue <= step ? limit + 6 * step : limit + step;
    }
}
