package org.bftws.bench;

import java.nio.file.Path;
import java.util.List;

import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

/**
 * {@code ./bftws measure} options, as {@link MeasureCommand} reads them.
 *
 * @param what     the experiments to run, in order: checkpoint, transfer, viewchange, failover
 * @param quick    fewer sizes, intervals and repetitions (a smoke run, not figures to quote)
 * @param security the group's profile
 * @param home     the state directory: run directories and the testbed's keys live under home/measure, home/testbed
 * @param keep     keep the run directories (replicas.xml, logs) of every group started
 * @param elements the echo state sizes (padding elements) of checkpoint and transfer, or empty for their defaults
 * @param count    sequences opened by {@code sequences}
 * @param clients  the numbers of concurrent clients of {@code overload}
 * @param seconds  how long {@code overload} runs each number of clients
 */
record MeasureOptions(List<String> what, boolean quick, SecurityProfile security, Path home, boolean keep,
                      List<Integer> elements, int count, List<Integer> clients, int seconds) {

    /** The recovery figures: what {@code all} runs. */
    static final List<String> EXPERIMENTS = List.of("checkpoint", "transfer", "viewchange", "failover");
    /** Operations measurements, run only when named. */
    static final List<String> OPERATIONS = List.of("sequences", "overload");

    /** The state sizes of checkpoint and transfer: --elements, else {@code full}, or {@code quick} with --quick. */
    List<Integer> sizes(List<Integer> full, List<Integer> quickSizes) {
        return !elements.isEmpty() ? elements : quick ? quickSizes : full;
    }

    /** The options of command line {@code args}; a bad one throws picocli's ParameterException. */
    static MeasureOptions parse(String... args) {
        return Cli.parse(new MeasureCommand(), args).options();
    }
}
