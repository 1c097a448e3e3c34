package org.bftws.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.bftws.config.SecurityProfile;
import org.bftws.server.Arguments;
import org.bftws.server.UsageException;

/**
 * {@code ./bftws measure} options.
 *
 * @param what     the experiments to run, in order: checkpoint, transfer, viewchange, failover
 * @param quick    fewer sizes, intervals and repetitions (a smoke run, not figures to quote)
 * @param security the group's profile
 * @param home     the state directory: run directories and the testbed's keys live under home/measure, home/testbed
 * @param keep     keep the run directories (replicas.xml, logs) of every group started
 * @param elements the echo state sizes (padding elements) of checkpoint and transfer, or empty for their defaults
 */
record MeasureOptions(List<String> what, boolean quick, SecurityProfile security, Path home, boolean keep,
                      List<Integer> elements) {

    static final List<String> EXPERIMENTS = List.of("checkpoint", "transfer", "viewchange", "failover");

    static final String USAGE = """
            usage: ./bftws measure checkpoint|transfer|viewchange|failover|all [--quick] [--security mac|wssec|none]
                                   [--keep] [--elements N,N,...]
              starts groups of four replica JVMs on this machine (the testbed's launcher), drives them with echo
              clients, kills and restarts replicas, and prints the recovery figures of the BFT-WS paper's Figs 9-11
              from the replicas' own timings ('measurements' on their standard input):
              checkpoint  checkpoint latency and time until stable against the state size (Fig. 9)
              transfer    state transfer latency against the state size, a backup restarted empty (Fig. 10)
              viewchange  view change latency at the new primary against the checkpoint interval (Fig. 11)
              failover    client-observed time from killing the primary to the first reply in the new view
              all         all four, in this order
              --quick     fewer sizes and repetitions: a smoke run, not figures to quote
              --security  the group's profile (default mac)
              --keep      keep every run directory (replicas.xml, logs) under .bftws/measure
              --elements  the state sizes of checkpoint and transfer, in echo padding elements of ~80 bytes
                          (default 0,1000,10000,127000; --quick 0,10000)""";

    /** The state sizes of checkpoint and transfer: --elements, else {@code full}, or {@code quick} with --quick. */
    List<Integer> sizes(List<Integer> full, List<Integer> quickSizes) {
        return !elements.isEmpty() ? elements : quick ? quickSizes : full;
    }

    static MeasureOptions parse(String[] argv) {
        Arguments args = new Arguments(argv);
        List<String> what = null;
        boolean quick = false;
        SecurityProfile security = SecurityProfile.MAC;
        Path home = Arguments.home();
        boolean keep = false;
        List<Integer> elements = List.of();
        while (args.hasNext()) {
            if (!args.peek().startsWith("-")) {
                String a = args.word();
                if (what != null) {
                    throw new UsageException("say one experiment (or all), not '" + a + "' as well");
                }
                String w = a.toLowerCase(Locale.ROOT);
                if (w.equals("all")) {
                    what = EXPERIMENTS;
                } else if (EXPERIMENTS.contains(w)) {
                    what = List.of(w);
                } else {
                    throw new UsageException("unknown experiment '" + a + "': " + String.join(", ", EXPERIMENTS)
                            + " or all");
                }
                continue;
            }
            String option = args.option();
            switch (option) {
                case "--quick" -> quick = true;
                case "--security" -> security = SecurityProfile.valueOf(
                        args.choice(option, "mac", "wssec", "none").toUpperCase(Locale.ROOT));
                case "--home" -> home = args.path(option);
                case "--keep" -> keep = true;
                case "--elements" -> elements = elements(option, args.value(option));
                default -> throw new UsageException("unknown option " + option);
            }
        }
        if (what == null) {
            throw new UsageException("say what to measure: " + String.join(", ", EXPERIMENTS) + " or all");
        }
        return new MeasureOptions(what, quick, security, home, keep, elements);
    }

    private static List<Integer> elements(String option, String value) {
        try {
            List<Integer> sizes = java.util.Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf)
                    .toList();
            if (sizes.stream().anyMatch(n -> n < 0 || n > 1_000_000)) {
                throw new NumberFormatException("out of range");
            }
            return sizes;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes sizes from 0 to 1000000 separated by commas, not '" + value
                    + "'");
        }
    }
}
