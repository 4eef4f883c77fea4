package dev.limiter.agent.decision;

import java.net.InetAddress;

/**
 * The text of the last peer address an adapter keyed on, kept while the same address keeps coming: an
 * {@code ip} key on every request of a kept-alive connection formats it once ({@code getHostAddress()} builds a
 * new string each time). {@code equals} compares the address bytes. Only its own thread touches an instance (one
 * per thread's scratch {@link Call}).
 */
public final class AddressText {

    private InetAddress last;
    private String lastText;

    /** The text of {@code address}, or null for null. */
    public String of(InetAddress address) {
        if (address == null) {
            return null;
        }
        if (address.equals(last)) {
            return lastText;
        }
        String text = address.getHostAddress();
        last = address;
        lastText = text;
        return text;
    }
}
