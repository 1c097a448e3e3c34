package org.bftws.server;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bftws-server replica|keygen|gateway ...}: the commands a deployment runs, one class per command; a new one
 * is one more entry in {@code subcommands}.
 */
@Command(name = "bftws-server", usageHelpWidth = 120,
        subcommands = {ReplicaCommand.class, KeygenCommand.class, GatewayCommand.class},
        description = "The commands a BFT-WS deployment runs; '<command> --help' says more.")
public final class BftwsServer implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    public static void main(String[] args) {
        Cli.exit(new BftwsServer(), args);
    }

    /** Without a command: the usage, on standard error, and the status of a bad command line. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Cli.USAGE_ERROR;
    }
}
