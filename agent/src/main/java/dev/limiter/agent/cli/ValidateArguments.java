package dev.limiter.agent.cli;

/**
 * The arguments of {@code validate}: at most one rules file, {@code --strategies=JAR[:JAR...]} and
 * {@code --classpath=PATH} (each option also as two arguments); null for what is not given.
 */
record ValidateArguments(String file, String strategies, String classpath) {

    private static final String[] OPTIONS = {"--classpath", "--strategies"};

    /**
     * Parses {@code args} after the command's name.
     *
     * @throws IllegalArgumentException with the first argument that is none of these as its message
     */
    static ValidateArguments parse(String[] args) {
        String[] values = new String[OPTIONS.length];
        String file = null;
        for (int i = 1; i < args.length; i++) {
            int option = option(args[i]);
            if (option >= 0 && args[i].length() > OPTIONS[option].length()) {
                values[option] = args[i].substring(OPTIONS[option].length() + 1);
            } else if (option >= 0 && i + 1 < args.length) {
                values[option] = args[++i];
            } else if (file == null && !args[i].startsWith("--")) {
                file = args[i];
            } else {
                throw new IllegalArgumentException(args[i]);
            }
        }
        return new ValidateArguments(file, values[1], values[0]);
    }

    /** The index in {@link #OPTIONS} of {@code arg} ({@code --name} or {@code --name=value}), or -1. */
    private static int option(String arg) {
        for (int i = 0; i < OPTIONS.length; i++) {
            if (arg.equals(OPTIONS[i]) || arg.startsWith(OPTIONS[i] + "=")) {
                return i;
            }
        }
        return -1;
    }
}
