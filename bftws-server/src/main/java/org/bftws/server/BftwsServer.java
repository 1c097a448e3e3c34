package org.bftws.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bftws-server replica|keygen|gateway ...}: the commands a deployment runs, one class per command; a new one
 * is one more entry in {@code subcommands}. The checkout's {@code ./bftws replica|keygen|gateway} start here too
 * ({@link #main}: named {@code bftws} there, with the checkout's replica).
 */
@Command(name = "bftws-server", usageHelpWidth = 120,
        subcommands = {ReplicaCommand.class, KeygenCommand.class, GatewayCommand.class},
        description = "The commands a BFT-WS deployment runs; '<command> --help' says more.")
public final class BftwsServer implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    /** The system property that names the command in usage and errors: {@code ./bftws} sets it to {@code bftws}. */
    public static final String COMMAND_NAME = "bftws.command";

    public static void main(String[] args) {
        Cli.exit(commandLine(), args);
    }

    /**
     * The command line {@link #main} runs: named by {@value #COMMAND_NAME} if set (else {@code bftws-server}), and
     * with a launcher's {@code replica} in place of the product's when a {@link ReplicaCommandProvider} is on the
     * classpath; the commands keep their order.
     */
    public static CommandLine commandLine() {
        CommandLine line = Cli.commandLine(new BftwsServer());
        String name = System.getProperty(COMMAND_NAME);
        if (name != null && !name.isBlank()) {
            line.setCommandName(name);
        }
        ServiceLoader.load(ReplicaCommandProvider.class).findFirst().ifPresent(provider -> {
            Map<String, CommandLine> commands = new LinkedHashMap<>(line.getSubcommands());
            commands.keySet().forEach(line.getCommandSpec()::removeSubcommand);
            commands.put("replica", provider.replica());
            commands.forEach(line::addSubcommand);
        });
        return Cli.configure(line);
    }

    /** Without a command: the usage, on standard error, and the status of a bad command line. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Cli.USAGE_ERROR;
    }
}
