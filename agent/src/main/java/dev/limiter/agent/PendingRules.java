package dev.limiter.agent;

import dev.limiter.rules.reload.RuleSetHolder;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The rules while they load at start-up: premain may start the parse on a background thread and return, so the
 * application's own start-up runs meanwhile (parsing YAML is most of what the agent costs at start-up).
 *
 * <p>Only for a file that cannot name classes ({@link #mayNameClasses(byte[])}: no {@code method:} key and no
 * word {@code jaxrs}): then what is woven meanwhile (servlets, filters, mappers) needs no rules, and
 * the one thing that must not happen before the rules are known, checking a request, waits for them, bounded
 * by {@link #WAIT_MILLIS} ({@link PendingServletDelegate}). A file that may name classes is parsed in premain,
 * as the class loads that follow need it; so is any file with {@code strict=true}.
 */
public final class PendingRules {

    /** How long anything waits for the rules at start-up before it goes on without them. */
    static final long WAIT_MILLIS = 10_000;

    private final CountDownLatch loaded = new CountDownLatch(1);
    private final boolean mayNameClasses;
    private volatile RuleSetHolder holder;

    private PendingRules(boolean mayNameClasses) {
        this.mayNameClasses = mayNameClasses;
    }

    /** Rules that are already loaded. */
    public static PendingRules loaded(RuleSetHolder holder) {
        PendingRules rules = new PendingRules(true);
        rules.complete(holder);
        return rules;
    }

    /** Rules that will be loaded from {@code file} and handed over with {@link #complete}. */
    public static PendingRules loading(Path file) {
        byte[] text;
        try {
            // a FileInputStream, not Files: its classes are loaded already (System.in), the NIO channel's ~20
            // would load on the application's main thread
            try (InputStream in = new FileInputStream(file.toFile())) {
                text = in.readAllBytes();
            }
        } catch (IOException | RuntimeException e) {
            text = null; // the parse will fail just as fast and report it
        }
        return new PendingRules(text == null || mayNameClasses(text));
    }

    /**
     * False only if a rules file with this content cannot have a {@code method:} or {@code jaxrs:} rule: the
     * word {@code jaxrs} appears nowhere, and {@code method} never as a key (followed, after an optional quote
     * and blanks, by a colon or the end of the line; {@code methods: [GET]} of an HTTP rule is not one). Errs on
     * the side of true: any
     * backslash (a YAML escape could spell a key) or NUL byte (a UTF-16 file) counts too.
     */
    static boolean mayNameClasses(byte[] text) {
        for (byte b : text) {
            if (b == '\\' || b == 0) {
                return true;
            }
        }
        String ascii = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (ascii.contains("jaxrs")) {
            return true;
        }
        for (int at = ascii.indexOf("method"); at >= 0; at = ascii.indexOf("method", at + 1)) {
            int next = at + "method".length();
            if (next < ascii.length() && (ascii.charAt(next) == '"' || ascii.charAt(next) == '\'')) {
                next++;
            }
            while (next < ascii.length() && (ascii.charAt(next) == ' ' || ascii.charAt(next) == '\t')) {
                next++;
            }
            // a colon makes it a key; so can one on a later line (YAML's explicit "? method")
            if (next == ascii.length() || ascii.charAt(next) == ':' || ascii.charAt(next) == '\n'
                    || ascii.charAt(next) == '\r') {
                return true;
            }
        }
        return false;
    }

    /** Hands over the loaded rules (valid or not) and wakes everything that waits. */
    public void complete(RuleSetHolder loadedHolder) {
        holder = loadedHolder;
        loaded.countDown();
    }

    /** The rules, or null while they are still loading. */
    public RuleSetHolder now() {
        return holder;
    }

    /** The rules, waiting for them if they are still loading; null if they did not come within the bound. */
    public RuleSetHolder await() {
        return await(WAIT_MILLIS);
    }

    RuleSetHolder await(long waitMillis) {
        RuleSetHolder current = holder;
        if (current != null) {
            return current;
        }
        try {
            loaded.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return holder;
    }

    /** True unless the file is known to have no {@code method:} or {@code jaxrs:} rule. */
    public boolean mayNameClasses() {
        return mayNameClasses;
    }
}
