package org.bftws.bench;

import java.util.concurrent.Callable;

import org.bftws.server.Cli;
import org.bftws.wire.costs.WireCosts;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./bftws wire-costs}: the command line of {@link WireCosts}. */
@Command(name = "wire-costs", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = "Prints what the PBFT wire format, the mac profile's authenticators and the embedded signatures "
                + "cost per message on this machine, with real keys: medians and 90th percentiles after a warm-up "
                + "(docs/wire.md).")
final class WireCostsCommand implements Callable<Integer> {

    @Mixin
    Cli.Help help;

    @Option(names = "--quick", description = "fewer repetitions: a smoke run, not figures to quote")
    boolean quick;

    @Override
    public Integer call() throws Exception {
        WireCosts.run(quick);
        return 0;
    }
}
