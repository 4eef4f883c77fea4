package dev.limiter.rules.key;

import dev.limiter.rules.text.Suggestions;

/**
 * What a rule counts by: the {@code key:} of a rule, parsed once.
 *
 * <p>The agent turns it into the per-request key string: {@link Kind#GLOBAL} one shared budget (the key is
 * the empty string); {@link Kind#IP} the client address from {@link ClientIpResolver}; {@link Kind#HEADER}
 * and {@link Kind#PARAM} the named request header / query-or-form parameter ({@link #name()}); {@link
 * Kind#PRINCIPAL} the authenticated user name; {@link Kind#PATH} the request path; {@link Kind#PATH_PARAM} the
 * segment captured as {@code {name}} ({@code Rule.pathParam}); {@link Kind#ARG} the method argument at
 * {@link #index()} ({@code String.valueOf}); {@link Kind#METADATA} the named gRPC request metadata entry
 * (gRPC rules only); {@link Kind#HOST} the host an outgoing call goes to ({@code http-client:} rules only). How a missing value (no header, no principal) is counted is the
 * agent's decision and is documented in {@code docs/rules.md}.
 *
 * @param kind  what to count by
 * @param name  header, parameter, path-variable or metadata name for HEADER, PARAM, PATH_PARAM and METADATA; null
 *              otherwise
 * @param index argument position for ARG; -1 otherwise
 */
public record KeySpec(Kind kind, String name, int index) {

    /** The kinds a {@code key:} can have, with their spelling in the file. */
    public enum Kind {
        GLOBAL("global"), IP("ip"), HEADER("header"), PARAM("param"), PRINCIPAL("principal"), PATH("path"),
        PATH_PARAM("path-param"), ARG("arg"), METADATA("metadata"), HOST("host");

        private final String spelling;

        Kind(String spelling) {
            this.spelling = spelling;
        }

        /** How the kind is written in the rules file. */
        public String spelling() {
            return spelling;
        }

        /** True for kinds written {@code kind:NAME} / {@code arg:N}. */
        public boolean hasArgument() {
            return this == HEADER || this == PARAM || this == PATH_PARAM || this == ARG || this == METADATA;
        }
    }

    /** The default: one budget shared by every caller. */
    public static final KeySpec GLOBAL = new KeySpec(Kind.GLOBAL, null, -1);

    static final String SPELLINGS = "global, ip, header:NAME, param:NAME, principal, path, path-param:NAME, arg:N,"
            + " metadata:NAME, host";
    static final int MAX_ARG = 254;

    /**
     * Parses the file's spelling.
     *
     * @throws IllegalArgumentException with a message fit for a rules error
     */
    public static KeySpec parse(String text) {
        int colon = text.indexOf(':');
        String kindText = colon < 0 ? text : text.substring(0, colon);
        String argument = colon < 0 ? null : text.substring(colon + 1);
        Kind kind = null;
        for (Kind candidate : Kind.values()) {
            if (candidate.spelling.equals(kindText)) {
                kind = candidate;
            }
        }
        if (kind == null) {
            String suggestion = Suggestions.closest(kindText, spellings());
            throw new IllegalArgumentException("unknown key kind '" + kindText + "'"
                    + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
                    + "; expected one of: " + SPELLINGS);
        }
        if (!kind.hasArgument()) {
            if (argument != null) {
                throw new IllegalArgumentException("key '" + kind.spelling + "' takes no ':' argument");
            }
            return kind == Kind.GLOBAL ? GLOBAL : new KeySpec(kind, null, -1);
        }
        if (argument == null || argument.isEmpty()) {
            throw new IllegalArgumentException("key '" + kind.spelling + "' needs an argument: '"
                    + kind.spelling + (kind == Kind.ARG ? ":N'" : ":NAME'"));
        }
        if (kind == Kind.ARG) {
            int index = -1;
            if (argument.length() <= 3 && asciiDigits(argument)) {
                index = Integer.parseInt(argument);
            }
            if (index < 0 || index > MAX_ARG) {
                throw new IllegalArgumentException("key 'arg:" + argument + "': the argument position must be a"
                        + " number from 0 to " + MAX_ARG);
            }
            return new KeySpec(kind, null, index);
        }
        for (int i = 0; i < argument.length(); i++) {
            char c = argument.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == ':') {
                throw new IllegalArgumentException("key '" + text + "': the name contains an invalid character");
            }
        }
        return new KeySpec(kind, argument, -1);
    }

    /** A plain loop: {@code chars().allMatch(lambda)} would spin a lambda and load the stream classes. */
    private static boolean asciiDigits(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String[] spellings() {
        Kind[] kinds = Kind.values();
        String[] names = new String[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            names[i] = kinds[i].spelling;
        }
        return names;
    }

    /** The spelling in the file, e.g. {@code header:X-Api-Key} or {@code arg:0}. */
    @Override
    public String toString() {
        if (kind == Kind.ARG) {
            return "arg:" + index;
        }
        return name == null ? kind.spelling : kind.spelling + ":" + name;
    }
}
