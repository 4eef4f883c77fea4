package dev.limiter.agent.cli;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Whether standard output is a terminal, so {@code status --watch} redraws in place only there and prints
 * successive blocks into a pipe or a file. Java 17 has no console when either stream is redirected; Java 22 and
 * later return one regardless and answer with {@code Console.isTerminal()}, looked up by name so the CLI runs on
 * both.
 */
final class Terminal {

    /** Cursor home, then erase the screen: the two ANSI sequences every terminal emulator knows. */
    static final String CLEAR = "\033[H\033[2J";

    private Terminal() {
    }

    static boolean stdoutIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return Boolean.TRUE.equals(isTerminal.invoke(console));
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
