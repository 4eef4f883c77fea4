package dev.limiter.demo.service;

import dev.limiter.api.RateLimitExceededException;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The demo's servlet endpoints, each a few lines of pretend business logic returning JSON.
 *
 * <p>Kept in one place so the rules file, the load driver and the test that checks they agree all see the same
 * list. {@code /rest/catalog/{sku}} is not here: it is the Jersey resource {@link CatalogResource}.
 */
enum Endpoint {
    /**
     * Calls the plain method {@link PriceCalculator#quote}, which the {@code quotes} method rule limits; over that
     * limit the order is still answered, without a price (a degraded answer, not an error).
     */
    ORDERS("/api/orders") {
        @Override
        String body(HttpServletRequest request) {
            String sku = param(request, "sku", "A-1");
            String price;
            try {
                price = Long.toString(PriceCalculator.quote(sku, 1));
            } catch (QuoteBudgetExceededException e) {
                price = "null,\"price_note\":\"" + JsonText.clean(String.valueOf(e.getMessage())) + "\"";
            }
            return "{\"sku\":\"" + sku + "\",\"price_cents\":" + price + "}";
        }
    },
    /**
     * Asks the partner client {@link PartnerRatesClient#rate}, whose {@code @Limit} makes calls over the partner's
     * 20 a second wait for their turn; one that would wait too long is answered without a rate.
     */
    CONVERT("/api/convert") {
        @Override
        String body(HttpServletRequest request) {
            String to = param(request, "to", "EUR");
            String rate;
            try {
                rate = PARTNER.rate(to);
            } catch (RateLimitExceededException e) {
                rate = "null,\"rate_note\":\"partner busy, retry in " + e.retryAfterMillis() + " ms\"";
            }
            return "{\"to\":\"" + to + "\",\"rate\":" + rate + "}";
        }
    },
    /**
     * Asks the partner's shipping API over HTTP ({@link PartnerShippingClient}); the {@code partner-shipping}
     * {@code http-client:} rule paces those calls to the partner's 10 a second.
     */
    SHIPPING("/api/shipping") {
        @Override
        String body(HttpServletRequest request) throws InterruptedException {
            String zip = param(request, "zip", "10115");
            String[] note = new String[1];
            String quote = SHIPPING_PARTNER.quote(zip, note);
            return "{\"zip\":\"" + zip + "\",\"quote\":" + (quote != null ? quote
                    : "null,\"quote_note\":\"" + JsonText.clean(note[0]) + "\"") + "}";
        }
    },
    /** The pretend partner's shipping API that {@link #SHIPPING} calls (no rule limits it as a server). */
    PARTNER_SHIPPING("/partner/shipping") {
        @Override
        String body(HttpServletRequest request) {
            return "{\"cents\":" + (399 + Math.floorMod(param(request, "zip", "").hashCode(), 300)) + "}";
        }
    },
    SEARCH("/api/search") {
        @Override
        String body(HttpServletRequest request) {
            return "{\"query\":\"" + param(request, "q", "") + "\",\"hits\":3}";
        }
    },
    EXPORT("/api/export") {
        @Override
        String body(HttpServletRequest request) {
            return "{\"user\":\"" + param(request, "user", "") + "\",\"rows\":1000}";
        }
    },
    /** The slow one: a report takes {@link #REPORT_MILLIS} ms, so parallel callers pile up. */
    REPORT("/api/report") {
        @Override
        String body(HttpServletRequest request) throws InterruptedException {
            Thread.sleep(REPORT_MILLIS);
            return "{\"report\":\"ready\",\"millis\":" + REPORT_MILLIS + "}";
        }
    },
    USERS("/api/users/*") {
        @Override
        String body(HttpServletRequest request) {
            return "{\"page\":\"" + JsonText.clean(String.valueOf(request.getPathInfo())) + "\"}";
        }
    };

    static final long REPORT_MILLIS = 400;

    /** One client for the whole service, as an application would keep it. */
    static final PartnerRatesClient PARTNER = new PartnerRatesClient();
    static final PartnerShippingClient SHIPPING_PARTNER = new PartnerShippingClient();

    private final String mapping;

    Endpoint(String mapping) {
        this.mapping = mapping;
    }

    /** The servlet mapping. */
    String mapping() {
        return mapping;
    }

    /** The response body. */
    abstract String body(HttpServletRequest request) throws InterruptedException;

    /** A query parameter, cleaned for echoing into JSON. */
    static String param(HttpServletRequest request, String name, String absent) {
        String value = request.getParameter(name);
        return value == null ? absent : JsonText.clean(value);
    }
}
