package dev.limiter.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Rate-limits a method (or, on a class, every public method it declares) when the application runs with the
 * limiter agent ({@code -javaagent:limiter.jar}); without the agent it does nothing.
 *
 * <p>The attributes are those of a {@code method:} rule in the rules file, with the same names (camel case for
 * the hyphenated ones: {@code onError} is {@code on-error}), the same values and the same checks: the agent
 * turns the annotation into such a rule and compiles it with the rules file's own code. An attribute left at its
 * default means "not set", as a key missing from a rule. A bad value (say {@code window = "5 minutes"}) is
 * logged once, naming the class, the method and the attribute, and that method runs unlimited.
 *
 * <pre>{@code
 * @Limit(id = "send-mail", limit = 5, window = "1m", key = "arg:0")
 * public void send(String to, String body) { ... }
 * }</pre>
 *
 * <p>A rejected call throws {@link RateLimitExceededException} (or {@link #throwClass()}), carrying the rule id
 * and when to retry. A rule in the rules file with the same {@link #id()} replaces the annotation while it is
 * in the file (reloads switch between the two), so operators can change a limit without a build.
 *
 * <p>A method-level annotation wins over its class's. Several methods with the same {@code id} share one rule
 * (one budget) if their attributes are equal. Annotated rules keep their state in this JVM; a rules-file rule
 * with the same id can put it in Redis ({@code store:}).
 *
 * <p>Retained at run time although the agent reads it from the class file (never by reflection): frameworks and
 * the application's own code and tests can then see it too, and it costs nothing at run time.
 *
 * <p>{@code onLimit = "wait"} with a {@code maxWait} makes a call that finds the limit reached wait for its permit
 * (parked, for at most {@code maxWait}) instead of being rejected; {@code token-bucket}, {@code leaky-bucket} and
 * {@code fixed-window} only.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Limit {

    /**
     * The rule id: 1 to 100 letters, digits, {@code .}, {@code _}, {@code -}, starting with a letter or digit.
     * Default: the class's binary name, a dot and the method name ({@code com.acme.Mailer.send}; a nested class's
     * {@code $} becomes {@code .}). JMX names the rule by it and a rules-file rule with this id overrides it.
     */
    String id() default "";

    /** Permits per window; for {@code strategy = "concurrency"}, calls in flight. Required. */
    long limit();

    /**
     * A whole number and a unit: {@code 250ms}, {@code 1s}, {@code 1m}, {@code 1h}, {@code 1d}. Required except
     * for {@code concurrency}.
     */
    String window() default "";

    /** What the rule counts by: {@code global} (default) or {@code arg:N}, the method's N-th argument (from 0). */
    String key() default "";

    /**
     * {@code fixed-window} (default), {@code token-bucket}, {@code sliding-window}, {@code sliding-log},
     * {@code leaky-bucket}, {@code concurrency}, or a custom strategy's name.
     */
    String strategy() default "";

    /** Burst size for {@code token-bucket} and {@code leaky-bucket}; 0: not set (the limit). */
    long capacity() default 0;

    /** {@code enforce} (default) or {@code dry-run} (count what would be rejected, reject nothing). */
    String mode() default "";

    /** {@code allow} (default: fail open) or {@code reject}: what a call gets if the limiter itself fails. */
    String onError() default "";

    /** The most keys with live state, from 1 to 100,000,000; 0: not set (100,000). */
    long maxKeys() default 0;

    /** What a new key gets while every {@code maxKeys} slot is live: {@code reject} (default), {@code allow} or
     * {@code evict-oldest}. */
    String onFull() default "";

    /**
     * The exception a rejected call throws: a public class with a public {@code (String)} or no-argument
     * constructor; a checked one only if the method declares it.
     */
    Class<? extends Throwable> throwClass() default RateLimitExceededException.class;

    /**
     * {@code reject} (default: throw at once) or {@code wait}: a call that finds the limit reached waits for its
     * permit, at most {@link #maxWait}, then proceeds; one that would wait longer is rejected at once. Needs
     * {@code token-bucket}, {@code leaky-bucket} or {@code fixed-window} (which waits for the next window).
     */
    String onLimit() default "";

    /** With {@code onLimit = "wait"}: the longest a call waits, {@code 1ms} to {@code 1m} (e.g. {@code "500ms"}). */
    String maxWait() default "";

    /**
     * Permits one call takes: a whole number ({@code "50"}), or {@code "arg:N"} to read it from the method's N-th
     * argument (from 0): an {@code int}, {@code long}, {@code short} or {@code byte} value, an array's length or a
     * collection's size; below 1 counts as 1. Default: 1. Above 1 it needs a strategy that takes several permits
     * at once (not {@code concurrency}).
     */
    String cost() default "";
}
