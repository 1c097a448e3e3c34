package org.bftws.bench;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.bftws.server.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bftws nemesis}: the command line of {@link Nemesis}, read into {@link Nemesis.Options}. */
@Command(name = "nemesis", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Runs the key-value sample's four replica JVMs and a client JVM each in a network namespace of its own "
                    + "(an address on a bridge it creates, all removed afterwards) for M minutes under faults drawn "
                    + "from the seed, one every 10-20 s: partitions (the primary alone, two against two, two halves "
                    + "bridged by one replica, the client cut from one replica), pauses (SIGSTOP), kills and "
                    + "restarts (from the data directory or empty) and a replica's clock set off (within and beyond "
                    + "clockSkewBound). The clients' gets, puts and compare-and-sets are recorded as a history that "
                    + "Porcupine judges (benchmarks/src/main/go/kvcheck, built with go build); the replicas' states "
                    + "must end equal and no acknowledged write may be lost. The last line is 'nemesis: N ops, K ok, "
                    + "F failed, U unknown, linearizable: yes|no, states equal, faults: P partitions, S pauses, R "
                    + "restarts, C clock skews, longest unavailability T s'. Needs root, the ip command and Go.",
            "Exit status: 0 every check passed, 1 a violation (or the run broke off; the history and the logs are "
                    + "kept), 2 bad command line or it cannot run here (the reason in one line)."})
final class NemesisCommand implements Callable<Integer> {

    private static final Logger AXIS2_LOG = Logger.getLogger("org.apache.axis2");

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--minutes", paramLabel = "M", defaultValue = "5",
            description = "how long the clients call under faults (default ${DEFAULT-VALUE})")
    int minutes;

    @Option(names = "--seconds", paramLabel = "S",
            description = "the length in seconds instead, for a short run (at least 20)")
    Integer seconds;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "the seed of the fault schedule and of the clients' operations (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "4",
            description = "client threads, each its own WS-RM sequence (default ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "3",
            description = "keys the clients read and write (default ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "10",
            description = "the Axis2 call timeout in seconds; a call the module gives up on (after this, and its "
                    + "WS-RM retransmissions, which may take longer) has an unknown outcome (default ${DEFAULT-VALUE})")
    int timeout;

    @Option(names = "--keep", description = "keep the run directory (history, logs) also when the run passed")
    boolean keep;

    @Option(names = "--home", paramLabel = "DIR",
            description = "the state directory: run directories under DIR/nemesis, the checker in DIR/nemesis, keys "
                    + "under DIR/testbed (default the checkout's .bftws)")
    Path home;

    Nemesis.Options options() {
        long runMillis;
        if (seconds != null) {
            Cli.range(spec, "--seconds", seconds, 20, 24 * 3600);
            runMillis = seconds * 1000L;
        } else {
            Cli.range(spec, "--minutes", minutes, 1, 24 * 60);
            runMillis = minutes * 60_000L;
        }
        Cli.range(spec, "--clients", clients, 1, 64);
        Cli.range(spec, "--keys", keys, 1, 100);
        Cli.range(spec, "--timeout", timeout, 1, 600);
        return new Nemesis.Options(runMillis, seed, clients, keys, timeout * 1000L, keep,
                home != null ? home : Cli.home());
    }

    @Override
    public Integer call() {
        Nemesis.Options options = options();
        AXIS2_LOG.setLevel(Level.WARNING);
        return new Nemesis(options, System.out).run();
    }
}
