package dev.limiter.demo.service;

/**
 * A plain method called from a servlet ({@code /api/orders}): no HTTP anywhere near it.
 *
 * <p>It is here for method rules ({@code match: method:} in the rules file), which limit calls of any method
 * by class and method name: the {@code quotes} rule of {@code examples/rules.yml} allows 8 quotes per second per
 * sku and throws {@link QuoteBudgetExceededException} beyond that.
 */
public final class PriceCalculator {

    private PriceCalculator() {
    }

    /** The price in cents of {@code quantity} items of {@code sku}: a stable pretend price. */
    public static long quote(String sku, int quantity) {
        long cents = 500 + Math.floorMod(sku.hashCode(), 4_500);
        return cents * quantity;
    }
}
