package dev.limiter.it.rest;

/**
 * The rules file one JAX-RS server JVM serves all scenarios of {@link AbstractJaxrsServerTest} with: every scenario
 * owns its rule and resource, so none spends another's budget. Rules name the shared JAX-RS application
 * (integration-tests/apps/jaxrs-jakarta) by class and method, as the rules-file contract (docs/jaxrs.md) says.
 *
 * <p>Each rendered version carries a marker rule {@code rules-v<N>} on the plain method {@code Marker.hit} (limit
 * 1, global): once version N is live, {@code /rest/marker} is rejected with that rule id. A method rule, not an
 * HTTP one, so it works on a JAX-RS runtime without a servlet container too. Rules that need the HTTP request in
 * flight (an HTTP path rule, a header key) are rendered for servers behind a servlet container; without one, two
 * header-keyed rules show what {@code on-error} makes of a key that cannot be computed there.
 */
record JaxrsScenarioRules(boolean servletContainer, boolean notifyRule, boolean stockRule) {

    static final String RESPONSE_CONTENT_TYPE = "application/problem+json";
    static final String PACKAGE = "dev.limiter.it.jaxrs";

    static JaxrsScenarioRules initial(boolean servletContainer) {
        return new JaxrsScenarioRules(servletContainer, false, false);
    }

    /** With or without the {@code notify} rule on {@code Notifier.ping} (added and removed by a reload). */
    JaxrsScenarioRules withNotifyRule(boolean present) {
        return new JaxrsScenarioRules(servletContainer, present, stockRule);
    }

    /** With or without the {@code stock} rule on {@code StockResource.get} (added and removed by a reload). */
    JaxrsScenarioRules withStockRule(boolean present) {
        return new JaxrsScenarioRules(servletContainer, notifyRule, present);
    }

    /** How many rules {@link #render} writes, for the start-up banner. */
    int ruleCount() {
        return 8 + (notifyRule ? 1 : 0) + (stockRule ? 1 : 0) + (servletContainer ? 3 : 2);
    }

    String render(int version) {
        StringBuilder text = new StringBuilder("""
                version: 1
                response:
                  status: 429
                  content-type: %s
                  body: '{"type":"rate-limited","rule":"${rule}","retry_after":${retry_after}}'
                  headers: both
                rules:
                  - id: rules-v%d
                    match: { method: { class: %s.Marker, method: hit } }
                    limit: 1
                    window: 1h
                  - id: items-get
                    match: { jaxrs: { class: %s.ItemsResource, method: get } }
                    key: path-param:id
                    limit: 3
                    window: 1h
                  - id: items-search
                    match: { jaxrs: { class: %s.ItemsResource, method: search } }
                    key: arg:0
                    limit: 2
                    window: 1h
                  - id: items-fail
                    match: { jaxrs: { class: %s.ItemsResource, method: fail } }
                    limit: 1
                    window: 1h
                  - id: greetings
                    match: { jaxrs: { class: %s.GreetingResource, method: greet } }
                    key: global
                    limit: 2
                    window: 1h
                  - id: mail
                    match: { method: { class: %s.Mailer, method: send } }
                    key: arg:0
                    limit: 2
                    window: 1h
                  - id: mail-urgent
                    match: { method: { class: %s.Mailer, method: sendUrgent } }
                    limit: 1
                    window: 1h
                    throw: %s.MailQuotaException
                  - id: mail-slow
                    match: { method: { class: %s.Mailer, method: sendSlow } }
                    strategy: concurrency
                    limit: 1
                """.formatted(RESPONSE_CONTENT_TYPE, version, PACKAGE, PACKAGE, PACKAGE, PACKAGE, PACKAGE, PACKAGE,
                PACKAGE, PACKAGE, PACKAGE));
        if (notifyRule) {
            text.append("""
                      - id: notify
                        match: { method: { class: %s.Notifier, method: ping } }
                        limit: 2
                        window: 1h
                    """.formatted(PACKAGE));
        }
        if (stockRule) {
            text.append("""
                      - id: stock
                        match: { jaxrs: { class: %s.StockResource, method: get } }
                        key: path-param:sku
                        limit: 1
                        window: 1h
                    """.formatted(PACKAGE));
        }
        if (servletContainer) {
            // orders-http is an HTTP rule on the same requests orders-jaxrs sees through the JAX-RS runtime
            text.append("""
                      - id: orders-http
                        match: { http: { path: '/rest/orders/{id}' } }
                        limit: 4
                        window: 1h
                      - id: orders-jaxrs
                        match: { jaxrs: { class: %s.OrdersResource, method: get } }
                        key: path-param:id
                        limit: 2
                        window: 1h
                      - id: orders-by-header
                        match: { jaxrs: { class: %s.OrdersResource, method: list } }
                        key: header:X-Api-Key
                        limit: 1
                        window: 1h
                    """.formatted(PACKAGE, PACKAGE));
        } else {
            // no servlet request in flight: the header key cannot be computed, and on-error decides
            text.append("""
                      - id: orders-no-request-allow
                        match: { jaxrs: { class: %s.OrdersResource, method: list } }
                        key: header:X-Api-Key
                        limit: 1
                        window: 1h
                        on-error: allow
                      - id: orders-no-request-reject
                        match: { jaxrs: { class: %s.OrdersResource, method: get } }
                        key: header:X-Api-Key
                        limit: 100
                        window: 1h
                        on-error: reject
                    """.formatted(PACKAGE, PACKAGE));
        }
        return text.toString();
    }
}
