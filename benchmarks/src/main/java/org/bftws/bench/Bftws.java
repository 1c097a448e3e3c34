package org.bftws.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.bftws.server.Cli;
import org.bftws.server.GatewayCommand;
import org.bftws.server.KeygenCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ./bftws <command> [options]}: every command of the checkout, on this module's classpath (bftws-server's
 * replica, with the echo sample, keygen and gateway; the simulator, the wire costs, the testbed, the benchmark and the
 * recovery figures). {@code ./bftws} starts the tools here and the product's commands from bftws-server's launcher
 * ({@code org.bftws.server.BftwsServer}), which runs the same command objects; this one lists them all. Its usage is
 * made from the commands' own picocli models: each command's synopsis, so every option that exists, and the first
 * paragraph of its description.
 */
@Command(name = "bftws", usageHelpWidth = 120, description = "BFT-WS: '<command> --help' says more about a command.",
        commandListHeading = "%nCommands:%n")
public final class Bftws implements Callable<Integer> {

    private static final int WIDTH = 120;
    private static final String INDENT = "      ";

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    public static void main(String[] args) {
        Cli.exit(commandLine(), args);
    }

    /** The command line with every command, and a usage that lists their options. */
    static CommandLine commandLine() {
        CommandLine line = new CommandLine(new Bftws())
                .addSubcommand(new SimCommand())
                .addSubcommand(new KeygenCommand())
                .addSubcommand(new WireCostsCommand())
                .addSubcommand(new TestbedCommand())
                .addSubcommand(new BenchCommand())
                .addSubcommand(new MeasureCommand())
                .addSubcommand(new SoakCommand())
                .addSubcommand(new NemesisCommand())
                .addSubcommand(EchoReplica.commandLine())
                .addSubcommand(new GatewayCommand());
        line.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST,
                h -> commandList(h.commandSpec()));
        return Cli.configure(line);
    }

    /** Without a command: the usage, on standard error, and the status of a bad command line. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Cli.USAGE_ERROR;
    }

    /** Each command's synopsis (all its options) and the first paragraph of its description. */
    private static String commandList(CommandSpec top) {
        StringBuilder b = new StringBuilder();
        for (CommandLine command : top.subcommands().values()) {
            b.append(command.getHelp().synopsis(0));
            String[] description = command.getCommandSpec().usageMessage().description();
            if (description.length > 0) {
                wrap(description[0], b);
            }
        }
        return b.toString();
    }

    private static void wrap(String text, StringBuilder b) {
        List<String> line = new ArrayList<>();
        int length = INDENT.length();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && length + 1 + word.length() > WIDTH) {
                b.append(INDENT).append(String.join(" ", line)).append(System.lineSeparator());
                line.clear();
                length = INDENT.length();
            }
            length += (line.isEmpty() ? 0 : 1) + word.length();
            line.add(word);
        }
        if (!line.isEmpty()) {
            b.append(INDENT).append(String.join(" ", line)).append(System.lineSeparator());
        }
    }
}
