package org.bftws.server;

import java.nio.file.Path;
import java.util.Locale;

/** Reads {@code --name value} command lines one option at a time, with errors that name the option. */
public final class Arguments {

    private final String[] args;
    private int next;

    public Arguments(String[] args) {
        this.args = args.clone();
    }

    /**
     * The options of sub-command {@code command} parsed from {@code args}, or null after {@code --help} (the usage
     * is printed). A bad command line prints what is wrong and the usage, and exits with status 2.
     */
    public static <T> T parseOrExit(String command, String[] args, String usage,
                             java.util.function.Function<String[], T> parse) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(usage);
            return null;
        }
        try {
            return parse.apply(args);
        } catch (UsageException e) {
            System.err.println(command + ": " + e.getMessage());
            System.err.println(usage);
            System.exit(2);
            return null;
        }
    }

    public boolean hasNext() {
        return next < args.length;
    }

    /** The next argument, not consumed. */
    public String peek() {
        return args[next];
    }

    /** The next argument, a word that is not an option (a sub-command's subject). */
    public String word() {
        return args[next++];
    }

    /** The next option name; a word that is not an option is refused. */
    public String option() {
        String a = args[next++];
        if (!a.startsWith("-")) {
            throw new UsageException("unexpected argument '" + a + "'");
        }
        return a;
    }

    /** The value after {@code option}. */
    public String value(String option) {
        if (next >= args.length || args[next].startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args[next++];
    }

    public Path path(String option) {
        return Path.of(value(option));
    }

    public int integer(String option, int min, int max) {
        String v = value(option);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a whole number, not '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException(option + " must be between " + min + " and " + max + ", not " + n);
        }
        return n;
    }

    /** One of {@code choices} (case-insensitive), returned as written in {@code choices}. */
    public String choice(String option, String... choices) {
        String v = value(option);
        for (String c : choices) {
            if (c.equalsIgnoreCase(v)) {
                return c;
            }
        }
        throw new UsageException(option + " must be one of " + String.join(", ", choices) + ", not '"
                + v.toLowerCase(Locale.ROOT) + "'");
    }

    /** The state directory of this checkout (the launcher passes -Dbftws.home=ROOT/.bftws), else ./.bftws. */
    public static Path home() {
        String home = System.getProperty("bftws.home");
        return Path.of(home == null || home.isBlank() ? ".bftws" : home);
    }
}
