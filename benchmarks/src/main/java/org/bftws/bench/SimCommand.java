package org.bftws.bench;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.bftws.server.Cli;
import org.bftws.sim.SimulatorRuns;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bftws sim}: the PBFT protocol simulator's command line ({@link SimulatorRuns}). */
@Command(name = "sim", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Runs seeds S..S+N-1 of the PBFT protocol simulator (random schedules of faults, partitions, crashes and "
                    + "Byzantine nodes, checked against the protocol's invariants) on all cores and ends with "
                    + "'schedules: N, violations: V, stuck: S'; --seed S replays one schedule with its trace.",
            "Exit status: 0 every schedule passed, 1 a schedule violated an invariant or got stuck, 2 bad command line."})
final class SimCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "1000",
            description = "how many schedules to run (default ${DEFAULT-VALUE})")
    long seeds;

    @Option(names = "--first", paramLabel = "S", defaultValue = "0",
            description = "the first seed (default ${DEFAULT-VALUE})")
    long first;

    @Option(names = "--seed", paramLabel = "S", description = "replay schedule S alone, with its trace")
    Long seed;

    @Option(names = "--verbose", description = "print every schedule's outcome, not only the failed ones")
    boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int status = seed != null ? SimulatorRuns.replay(seed, out) : SimulatorRuns.runMany(first, seeds, verbose, out);
        out.flush();
        return status;
    }
}
