package org.bftws.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ./bftws measure}: the command line of {@link MeasureMain}, read into {@link MeasureOptions}. */
@Command(name = "measure", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Starts groups of four replica JVMs on this machine (the testbed's launcher), drives them with echo "
                    + "clients, kills and restarts replicas, and prints the recovery figures of the BFT-WS paper's "
                    + "Figs 9-11 from the replicas' own timings as Markdown tables (docs/recovery.md).",
            "The experiments:",
            "  checkpoint  checkpoint latency and time until stable against the state size (Fig. 9)",
            "  transfer    state transfer latency against the state size, a backup restarted empty (Fig. 10)",
            "  viewchange  view change latency at the new primary against the checkpoint interval (Fig. 11)",
            "  failover    client-observed time from killing the primary to the first reply in the new view",
            "  all         all four, in this order",
            "  sequences   N client sequences opened, used and terminated or abandoned, the client party within its "
                    + "limit of live sequences per node: live last-reply entries, heap and checkpoint size before and "
                    + "after, which must come back (docs/operations.md)",
            "  overload    C concurrent appending clients (8, 64, 256): throughput, failures, retry-later faults, "
                    + "exactly-once, heap (docs/operations.md)",
            "Exit status: 0 measured, 1 an experiment failed, 2 bad command line."})
final class MeasureCommand implements Callable<Integer> {

    /** Axis2 logs every deployment step at INFO through java.util.logging; the console shows warnings only. */
    private static final Logger AXIS2_LOG = Logger.getLogger("org.apache.axis2");

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Parameters(paramLabel = "checkpoint|transfer|viewchange|failover|all|sequences|overload", arity = "1",
            description = "what to measure")
    String experiment;

    @Option(names = "--quick", description = "fewer sizes and repetitions (viewchange: interval 10 only; sequences: "
            + "an 8 s idle limit and 48 sequences per party): a smoke run, not figures to quote")
    boolean quick;

    @Option(names = "--security", paramLabel = "mac|wssec|none", defaultValue = "mac",
            description = "the group's profile (default ${DEFAULT-VALUE})")
    String security;

    @Option(names = "--keep", description = "keep every run directory (replicas.xml, logs) under .bftws/measure")
    boolean keep;

    @Option(names = "--elements", paramLabel = "N,N,..", description = "the state sizes of checkpoint and transfer, "
            + "in echo padding elements of ~80 bytes (default 0,1000,10000,127000; --quick 0,10000)")
    String elements;

    @Option(names = "--count", paramLabel = "N", defaultValue = "10000",
            description = "sequences: how many sequences to open (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--clients", paramLabel = "C,C,..", defaultValue = "8,64,256",
            description = "overload: the numbers of concurrent clients (default ${DEFAULT-VALUE})")
    String clients;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "60",
            description = "overload: how long each number of clients runs (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--home", paramLabel = "DIR", description = "the state directory: run directories under "
            + "DIR/measure, the testbed's keys under DIR/testbed (default the checkout's .bftws)")
    Path home;

    /** The options, checked beyond what picocli checks. */
    MeasureOptions options() {
        String w = experiment.toLowerCase(Locale.ROOT);
        List<String> what;
        if (w.equals("all")) {
            what = MeasureOptions.EXPERIMENTS;
        } else if (MeasureOptions.EXPERIMENTS.contains(w) || MeasureOptions.OPERATIONS.contains(w)) {
            what = List.of(w);
        } else {
            throw Cli.refuse(spec, "unknown experiment '" + experiment + "': "
                    + String.join(", ", MeasureOptions.EXPERIMENTS) + " or all; "
                    + String.join(", ", MeasureOptions.OPERATIONS));
        }
        Cli.range(spec, "--count", count, 1, 10_000_000);
        Cli.range(spec, "--seconds", seconds, 5, 24 * 3600);
        List<Integer> levels;
        try {
            levels = Arrays.stream(clients.split(",")).map(String::trim).map(Integer::valueOf).toList();
        } catch (NumberFormatException e) {
            throw Cli.refuse(spec, "--clients takes numbers of clients separated by commas, not '" + clients + "'");
        }
        if (levels.stream().anyMatch(c -> c < 1 || c > 1024)) {
            throw Cli.refuse(spec, "--clients takes numbers from 1 to 1024, not '" + clients + "'");
        }
        SecurityProfile profile = SecurityProfile.valueOf(
                Cli.choice(spec, "--security", security, "mac", "wssec", "none").toUpperCase(Locale.ROOT));
        return new MeasureOptions(what, quick, profile, home != null ? home : Cli.home(), keep,
                elements == null ? List.of() : sizes(elements), count, levels, seconds);
    }

    @Override
    public Integer call() {
        MeasureOptions options = options();
        AXIS2_LOG.setLevel(Level.WARNING);
        return MeasureMain.run(options, System.out);
    }

    private List<Integer> sizes(String value) {
        try {
            List<Integer> sizes = Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf).toList();
            if (sizes.stream().anyMatch(n -> n < 0 || n > 1_000_000)) {
                throw new NumberFormatException("out of range");
            }
            return sizes;
        } catch (NumberFormatException e) {
            throw Cli.refuse(spec, "--elements takes sizes from 0 to 1000000 separated by commas, not '" + value
                    + "'");
        }
    }
}
