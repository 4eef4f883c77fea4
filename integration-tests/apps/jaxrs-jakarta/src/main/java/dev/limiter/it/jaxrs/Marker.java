package dev.limiter.it.jaxrs;

/**
 * The reload marker: every version of a test's rules file limits {@link #hit()} with a rule named after the
 * version ({@code rules-v<N>}, limit 1), so the rule id in a rejection tells which version is live. A method rule
 * rather than an HTTP rule, so it works on a JAX-RS runtime without a servlet container too.
 */
public class Marker {

    public String hit() {
        return "marker";
    }
}
