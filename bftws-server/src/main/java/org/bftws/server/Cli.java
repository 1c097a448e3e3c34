package org.bftws.server;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * How every command of bftws-server and ./bftws meets its command line, through picocli: {@code --help} prints the
 * command's usage and exits 0; a bad command line prints ONE line naming what is wrong and a hint to try
 * {@code --help}, and exits 2; otherwise the command's own status. The checks picocli cannot express (ranges,
 * choices written in lower case, options that exclude each other) throw {@link #refuse} with the same effect.
 */
public final class Cli {

    /** Exit status of a command line the command cannot run. */
    public static final int USAGE_ERROR = 2;

    private Cli() {
    }

    /** The {@code -h, --help} option every command mixes in ({@code @Mixin Cli.Help help;}). */
    public static final class Help {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
        boolean requested;
    }

    /** A command line for {@code command}, reporting bad input in one line. */
    public static CommandLine commandLine(Object command) {
        return configure(new CommandLine(command));
    }

    /** The one-line error handling, on a command line (and its sub-commands) built elsewhere. */
    public static CommandLine configure(CommandLine line) {
        line.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            PrintWriter err = failed.getErr();
            String name = failed.getCommandSpec().qualifiedName(" ");
            err.println(name + ": " + oneLine(e.getMessage()));
            err.println("try '" + name + " --help'");
            err.flush();
            return USAGE_ERROR;
        });
        return line;
    }

    /** Runs {@code command} on {@code args} writing to {@code out} and {@code err}; returns its exit status. */
    public static int execute(Object command, String[] args, PrintStream out, PrintStream err) {
        return execute(commandLine(command), args, out, err);
    }

    /** As {@link #execute(Object, String[], PrintStream, PrintStream)} for a command line already built. */
    public static int execute(CommandLine line, String[] args, PrintStream out, PrintStream err) {
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        return line.execute(args);
    }

    /** Runs {@code command} on the JVM's command line and exits with its status. */
    public static void exit(Object command, String[] args) {
        exit(commandLine(command), args);
    }

    /** As {@link #exit(Object, String[])} for a command line already built. */
    public static void exit(CommandLine line, String[] args) {
        System.exit(execute(line, args, System.out, System.err));
    }

    /**
     * {@code command} with {@code args} parsed into its fields, without running it (tests, and commands that read
     * their options as a record); a bad command line throws the ParameterException the command would report.
     */
    public static <T> T parse(T command, String... args) {
        commandLine(command).parseArgs(args);
        return command;
    }

    /** The error for a command line that parses but cannot run; reported as a bad option is. */
    public static ParameterException refuse(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code value} if within {@code min..max}; else refused naming {@code option}. */
    public static int range(CommandSpec spec, String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw refuse(spec, option + " must be between " + min + " and " + max + ", not " + value);
        }
        return value;
    }

    /** One of {@code choices} (case-insensitive), as written in {@code choices}; else refused naming them. */
    public static String choice(CommandSpec spec, String option, String value, String... choices) {
        for (String c : choices) {
            if (c.equalsIgnoreCase(value)) {
                return c;
            }
        }
        throw refuse(spec, option + " must be one of " + String.join(", ", choices) + ", not '"
                + value.toLowerCase(Locale.ROOT) + "'");
    }

    /** The state directory of this checkout (the launcher passes -Dbftws.home=ROOT/.bftws), else ./.bftws. */
    public static Path home() {
        String home = System.getProperty("bftws.home");
        return Path.of(home == null || home.isBlank() ? ".bftws" : home);
    }

    /** picocli's few multi-line messages on one line. */
    private static String oneLine(String message) {
        String line = message == null ? "bad command line" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
        return line.startsWith("Error: ") ? line.substring("Error: ".length()) : line;
    }
}
