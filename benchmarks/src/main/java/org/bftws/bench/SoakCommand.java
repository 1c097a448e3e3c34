package org.bftws.bench;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bftws soak}: the command line of {@link Soak}, read into {@link Soak.Options}. */
@Command(name = "soak", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Runs the testbed's four replica JVMs (-Xmx256m, data directories) with appending clients for M minutes "
                    + "while it kills one replica (SIGKILL) every few minutes, in rotation, and starts it again from "
                    + "its data directory or empty, alternately; then checks that every replica holds the same state "
                    + "and every accepted append exactly once. The last line is 'soak: N ok, F failed, R restarts, "
                    + "states equal, exactly once, heap max H MB'.",
            "Exit status: 0 nothing failed, 1 a call failed, the states differ or an append was lost or duplicated, "
                    + "2 bad command line."})
final class SoakCommand implements Callable<Integer> {

    private static final Logger AXIS2_LOG = Logger.getLogger("org.apache.axis2");

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--minutes", paramLabel = "M", defaultValue = "60",
            description = "how long the clients append (default ${DEFAULT-VALUE})")
    int minutes;

    @Option(names = "--seconds", paramLabel = "S",
            description = "how long the clients append, in seconds, instead of --minutes: a smoke run (20 to 3600)")
    Integer seconds;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "8",
            description = "appending client threads, each its own WS-RM sequence (default ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--restart-every", paramLabel = "S", defaultValue = "180",
            description = "seconds between two kills (default ${DEFAULT-VALUE})")
    int restartEvery;

    @Option(names = "--down", paramLabel = "S", defaultValue = "10",
            description = "seconds a killed replica stays down before it is started again (default ${DEFAULT-VALUE})")
    int down;

    @Option(names = "--service", paramLabel = "echo|kv", defaultValue = "echo",
            description = "what the clients call: the echo sample's append (its log grows with every call) or the "
                    + "key-value sample's transfers and increments (its state keeps its size, so the heap shows what "
                    + "the module keeps) (default ${DEFAULT-VALUE})")
    String service;

    @Option(names = "--security", paramLabel = "mac|wssec|none", defaultValue = "mac",
            description = "the group's profile (default ${DEFAULT-VALUE})")
    String security;

    @Option(names = "--protocol", paramLabel = "N=V,..",
            description = "attributes of the group's <protocol> element, e.g. checkpointInterval=64 (docs/configuration.md)")
    String protocol;

    @Option(names = "--keep", description = "keep the run directory (logs, replicas.xml); kept anyway after a failure")
    boolean keep;

    @Option(names = "--home", paramLabel = "DIR",
            description = "the state directory: run directories under DIR/soak, keys under DIR/testbed (default the "
                    + "checkout's .bftws)")
    Path home;

    Soak.Options options() {
        Cli.range(spec, "--minutes", minutes, 1, 24 * 60);
        if (seconds != null) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--minutes")) {
                throw Cli.refuse(spec, "--seconds and --minutes both say how long the soak runs: give one");
            }
            Cli.range(spec, "--seconds", seconds, 20, 3600);
        }
        Cli.range(spec, "--clients", clients, 1, 256);
        Cli.range(spec, "--restart-every", restartEvery, 10, 24 * 3600);
        Cli.range(spec, "--down", down, 0, 3600);
        if (down >= restartEvery) {
            throw Cli.refuse(spec, "--down (" + down + " s) must be shorter than --restart-every (" + restartEvery
                    + " s): one replica is down at a time");
        }
        SecurityProfile profile = SecurityProfile.valueOf(
                Cli.choice(spec, "--security", security, "mac", "wssec", "none").toUpperCase(Locale.ROOT));
        String protocolElement;
        try {
            protocolElement = protocol == null ? null : TestbedOptions.protocolElement(protocol);
        } catch (IllegalArgumentException e) {
            throw Cli.refuse(spec, e.getMessage());
        }
        boolean kv = Cli.choice(spec, "--service", service, "echo", "kv").equals("kv");
        return new Soak.Options(seconds != null ? seconds : 60 * minutes, clients, restartEvery, down, profile, protocolElement, keep,
                home != null ? home : Cli.home(), kv);
    }

    @Override
    public Integer call() {
        Soak.Options options = options();
        AXIS2_LOG.setLevel(Level.WARNING);
        return new Soak(options, System.out).run();
    }
}
