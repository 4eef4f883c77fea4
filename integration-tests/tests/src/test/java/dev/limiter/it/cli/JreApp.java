package dev.limiter.it.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A JVM-only application for runtimes without most of the JDK (a jlink image): one plain method for a
 * {@code method:} rule, called five times at start ({@code CALLED allowed=A rejected=R}), then once per
 * {@code call} line on stdin (answering {@code allowed} or {@code rejected}) until stdin closes. It names none of
 * the limiter's types: a rejection is recognised by its class name.
 */
public final class JreApp {

    private JreApp() {
    }

    public static String quote(String item) {
        return "quote " + item;
    }

    public static void main(String[] args) throws Exception {
        int allowed = 0;
        for (int i = 0; i < 5; i++) {
            allowed += call() ? 1 : 0;
        }
        System.out.println("CALLED allowed=" + allowed + " rejected=" + (5 - allowed));
        System.out.println("READY");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("call")) {
                System.out.println(call() ? "allowed" : "rejected");
                System.out.flush();
            }
        }
    }

    private static boolean call() {
        try {
            quote("A-1");
            return true;
        } catch (RuntimeException e) {
            if (e.getClass().getName().equals("dev.limiter.api.RateLimitExceededException")) {
                return false;
            }
            throw e;
        }
    }
}
