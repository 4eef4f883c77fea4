package dev.limiter.it.jaxrs;

/**
 * A plain class that no rule names when the server starts: tests load it first, then add a rule for it by a
 * live reload (the agent must retransform a class that is already loaded), then remove the rule again.
 */
public class Notifier {

    public String ping(String to) {
        return "pinged " + to;
    }
}
