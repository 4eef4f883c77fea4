package weavingtest;

import java.util.ArrayList;
import java.util.List;

/**
 * Method shapes a woven method must keep working through: every return type, static and instance methods,
 * wide arguments before the key, locals and loops (frames after the advice's local), own handlers, finally,
 * synchronized blocks, throws from deep inside.
 */
public class TrickyMethods {

    public final List<String> trace = new ArrayList<>();

    public int sum(int[] values) {
        int total = 0;
        for (int value : values) {
            total += value;
        }
        return total;
    }

    public static long wide(double factor, long base, String key) {
        long result = base;
        for (int i = 0; i < 3; i++) {
            result += (long) (factor * i);
        }
        return result;
    }

    public static double keyedByDouble(long ignored, double key) {
        return key * 2;
    }

    public boolean flag(boolean on) {
        return !on;
    }

    public float half(float value) {
        return value / 2;
    }

    public char first(String text) {
        return text.isEmpty() ? '-' : text.charAt(0);
    }

    public String withHandlers(String input) {
        String result;
        try {
            trace.add("try");
            if (input == null) {
                throw new IllegalStateException("no input");
            }
            result = input.toUpperCase();
        } catch (IllegalStateException e) {
            trace.add("caught own");
            result = "none";
        } finally {
            trace.add("finally");
        }
        synchronized (trace) {
            trace.add("synchronized");
        }
        return result;
    }

    public void throwsDeep(int depth) {
        if (depth == 0) {
            throw new UnsupportedOperationException("deep");
        }
        for (int i = 0; i < 1; i++) {
            throwsDeep(depth - 1);
        }
    }

    public void earlyReturns(int which) {
        if (which == 0) {
            trace.add("zero");
            return;
        }
        while (which > 1) {
            which--;
            if (which == 3) {
                trace.add("three");
                return;
            }
        }
        trace.add("end");
    }

    public static int costOf(List<String> items, short weight) {
        return items.size() * weight;
    }

    public synchronized long syncCounter(long by) {
        long value = by;
        value++;
        return value;
    }
}
