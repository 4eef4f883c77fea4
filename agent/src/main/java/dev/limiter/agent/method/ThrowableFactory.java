package dev.limiter.agent.method;

import dev.limiter.api.RateLimitExceededException;
import dev.limiter.rules.Rule;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Makes the exception a rejected plain method throws: {@link RateLimitExceededException}, or the rule's
 * {@code throw:} class constructed with a (String message) constructor, else a no-arg one.
 *
 * <p>The class is resolved in the woven class's loader on the first rejection at a site and remembered there
 * ({@link ThrowTarget}); its constructor is cached on the class itself ({@link ClassValue}), so neither cache
 * keeps an application loader alive. A class that cannot be used (missing, not a {@code Throwable}, no usable
 * public constructor, or a checked exception the method does not declare, which callers could not catch) is
 * reported once, naming the rule and the class, and the default exception is thrown instead: a rejection is
 * never lost. {@link ThrowClassCheck} runs the same checks when the method is woven, so the error shows as the
 * class loads.
 */
final class ThrowableFactory {

    private static final Logger LOG = Logger.getLogger("dev.limiter");
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private static final ClassValue<Constructor<?>> CONSTRUCTOR = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> type) {
            try {
                return type.getConstructor(String.class);
            } catch (NoSuchMethodException | SecurityException noMessage) {
                try {
                    return type.getConstructor();
                } catch (NoSuchMethodException | SecurityException none) {
                    return null;
                }
            }
        }
    };

    private ThrowableFactory() {
    }

    /** The exception for a rejection of {@code site} by {@code rule}; never null, never throws. */
    static Throwable create(WovenSite site, Rule rule, long retryAfterMillis) {
        String name = rule.throwClass();
        if (Rule.DEFAULT_THROW.equals(name)) {
            return new RateLimitExceededException(rule.id(), retryAfterMillis);
        }
        Class<?> type = target(site, rule, name).type();
        if (type == null) {
            return new RateLimitExceededException(rule.id(), retryAfterMillis);
        }
        try {
            Constructor<?> constructor = CONSTRUCTOR.get(type);
            Object made = constructor.getParameterCount() == 1
                    ? constructor.newInstance(message(rule, retryAfterMillis))
                    : constructor.newInstance();
            return (Throwable) made;
        } catch (Throwable t) {
            report(rule.id(), name, "its constructor failed: " + t, t);
            return new RateLimitExceededException(rule.id(), retryAfterMillis);
        }
    }

    /** The message handed to a {@code throw:} class: the same text as {@link RateLimitExceededException}'s. */
    static String message(Rule rule, long retryAfterMillis) {
        return new RateLimitExceededException(rule.id(), retryAfterMillis).getMessage();
    }

    private static ThrowTarget target(WovenSite site, Rule rule, String name) {
        for (ThrowTarget known : site.throwTargets) {
            if (known.className.equals(name)) {
                return known;
            }
        }
        ThrowTarget resolved = new ThrowTarget(name, resolve(site, rule, name));
        synchronized (site) {
            ThrowTarget[] known = site.throwTargets;
            ThrowTarget[] grown = Arrays.copyOf(known, known.length + 1);
            grown[known.length] = resolved;
            site.throwTargets = grown;
        }
        return resolved;
    }

    private static Class<?> resolve(WovenSite site, Rule rule, String name) {
        ClassLoader loader = site.loader();
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (Throwable t) {
            report(rule.id(), name, "it cannot be loaded by the class loader of " + site.className + " (" + t + ")",
                    null);
            return null;
        }
        String problem = problem(type, site, loader);
        if (problem != null) {
            report(rule.id(), name, problem, null);
            return null;
        }
        return type;
    }

    private static String problem(Class<?> type, WovenSite site, ClassLoader loader) {
        if (!Throwable.class.isAssignableFrom(type)) {
            return "it is not a Throwable";
        }
        if (Modifier.isAbstract(type.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
            return "it is not a public concrete class";
        }
        if (CONSTRUCTOR.get(type) == null) {
            return "it has no public (String) or no-argument constructor";
        }
        if (RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type)) {
            return null;
        }
        for (String declared : site.declaredExceptions) {
            try {
                if (Class.forName(declared, false, loader).isAssignableFrom(type)) {
                    return null;
                }
            } catch (Throwable ignored) {
                // a declared type we cannot load does not make the checked exception legal
            }
        }
        return "it is a checked exception that " + site.describe() + " does not declare";
    }

    /**
     * Logs, once per rule and class, that the {@code throw:} class cannot be used and what is thrown instead.
     */
    static void report(String ruleId, String className, String problem, Throwable cause) {
        if (REPORTED.add(ruleId + '\u0000' + className)) {
            LOG.log(Level.SEVERE, "limiter: rule " + ruleId + ": throw: " + className + " cannot be used ("
                    + problem + "); rejected calls throw " + Rule.DEFAULT_THROW + " instead", cause);
        }
    }
}
