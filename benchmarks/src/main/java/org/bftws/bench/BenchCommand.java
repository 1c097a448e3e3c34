package org.bftws.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bftws bench}: the command line of {@link BenchMain}, read into {@link BenchOptions}. */
@Command(name = "bench", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Runs the echo benchmark suite on this machine's testbed (one JVM per node, loopback): the baselines and "
                    + "Configurations I-III, mac and wssec, 1-1000 elements, 1-8 clients, and BFT-SMaRt's own "
                    + "microbenchmark right after C-I mac for comparison; writes results.csv, peer.csv and PNG plots "
                    + "to DIR and the results page FILE. The last line is 'latency ratio L, projected throughput "
                    + "ratio P, box throughput T req/s' (Configuration I, mac, 8 clients, 10 elements, against no "
                    + "replication with the same security).",
            "Exit status: 0 every measured point succeeded and the headline was measured, 1 otherwise, 2 bad command "
                    + "line."})
final class BenchCommand implements Callable<Integer> {

    /** Axis2 logs every deployment step at INFO through java.util.logging; the console shows warnings only. */
    private static final Logger AXIS2_LOG = Logger.getLogger("org.apache.axis2");

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--quick", description = "a small version (about 4 minutes): 10 elements, mac and wssec, C-I and "
            + "the signed baselines, BFT-SMaRt with short runs; writes to .bftws/bench-quick unless --out/--page say "
            + "otherwise")
    boolean quick;

    @Option(names = "--samples", paramLabel = "N", description = "measured requests per point (default 1000; quick 300)")
    Integer samples;

    @Option(names = "--warmup", paramLabel = "W",
            description = "unmeasured requests before each point (default 200; quick 100)")
    Integer warmup;

    @Option(names = "--setup-warmup", paramLabel = "W", description = "unmeasured requests after a setup's nodes "
            + "start, at most 3 minutes (default 20000; quick 400, at most 6 s)")
    Integer setupWarmup;

    @Option(names = "--cap", paramLabel = "SECONDS",
            description = "a point stops sending after this long, with fewer samples (default 120; quick 8)")
    Integer cap;

    @Option(names = "--sizes", paramLabel = "1,10,100,1000",
            description = "the full plan's request sizes, in elements (default 1,10,100,1000)")
    String sizes;

    @Option(names = "--clients", paramLabel = "1,2,4,8", description = "the full plan's client counts (default 1,2,4,8)")
    String clients;

    @Option(names = "--profiles", paramLabel = "[none,]mac,wssec",
            description = "the full plan's security profiles (default mac,wssec)")
    String profiles;

    @Option(names = "--configs", paramLabel = "I,II,III", description = "the full plan's Configurations (default all)")
    String configs;

    @Option(names = "--only", paramLabel = "SETUP,..", description = "run only these setups of the plan (ids as in "
            + "results.csv: unrep-none, unrep-mac, c1-mac, c2-wssec, ..., and bftsmart for the peer); the other "
            + "setups' rows of DIR/results.csv, and DIR/peer.csv unless bftsmart is named, are kept")
    String only;

    @Option(names = "--out", paramLabel = "DIR", description = "CSV and PNG files (default docs/bench)")
    Path out;

    @Option(names = "--page", paramLabel = "FILE", description = "the results page (default docs/benchmarks.md)")
    Path page;

    @Option(names = "--report-only",
            description = "measure nothing: rewrite the plots and the page from DIR/results.csv and peer.csv")
    boolean reportOnly;

    @Option(names = "--keep", description = "keep every setup's run directory (logs, replicas.xml)")
    boolean keep;

    @Option(names = "--peer", paramLabel = "PATH", description = "BFT-SMaRt's runner (default "
            + BenchOptions.PEER_SCRIPT + " from the checkout's root), run at 8 and 1 clients; when it is missing or "
            + "fails, the peer's rows say why and the suite goes on")
    Path peer;

    @Option(names = "--no-peer", description = "do not run BFT-SMaRt (the page says so)")
    boolean noPeer;

    @Option(names = "--home", paramLabel = "DIR",
            description = "the state directory: keys and run directories (default the checkout's .bftws)")
    Path home;

    /** The options, checked beyond what picocli checks, with the defaults of a full or a quick run filled in. */
    BenchOptions options() {
        if (samples != null) {
            Cli.range(spec, "--samples", samples, 1, 1_000_000);
        }
        if (warmup != null) {
            Cli.range(spec, "--warmup", warmup, 0, 1_000_000);
        }
        if (setupWarmup != null) {
            Cli.range(spec, "--setup-warmup", setupWarmup, 0, 1_000_000);
        }
        if (cap != null) {
            Cli.range(spec, "--cap", cap, 1, 86_400);
        }
        List<Integer> sizeList = sizes == null ? List.of(1, 10, 100, 1000) : integers("--sizes", sizes, 0, 100_000);
        List<Integer> clientList = clients == null ? List.of(1, 2, 4, 8) : integers("--clients", clients, 1, 256);
        List<SecurityProfile> profileList = profiles == null ? List.of(SecurityProfile.MAC, SecurityProfile.WSSEC)
                : words("--profiles", profiles, "none", "mac", "wssec").stream()
                        .map(p -> SecurityProfile.valueOf(p.toUpperCase(Locale.ROOT))).toList();
        List<Configuration> configurations = configs == null
                ? List.of(Configuration.I, Configuration.II, Configuration.III)
                : words("--configs", configs, "I", "II", "III").stream().map(Configuration::valueOf).toList();
        if (noPeer && peer != null) {
            throw Cli.refuse(spec, "--peer and --no-peer contradict each other");
        }
        Path state = home != null ? home : Cli.home();
        Path root = state.toAbsolutePath().normalize().getParent();
        Path peerScript = noPeer ? null : (peer != null ? peer : root.resolve(BenchOptions.PEER_SCRIPT))
                .toAbsolutePath().normalize();
        Path defaultOut = quick ? state.resolve("bench-quick") : root.resolve("docs").resolve("bench");
        Path resolvedOut = out != null ? out : page != null ? page.toAbsolutePath().getParent() : defaultOut;
        Path defaultPage = quick ? resolvedOut.resolve("benchmarks.md") : root.resolve("docs").resolve("benchmarks.md");
        return new BenchOptions(quick, or(samples, quick ? 300 : 1000), or(warmup, quick ? 100 : 200),
                or(setupWarmup, quick ? 400 : 20_000), Duration.ofSeconds(or(cap, quick ? 8 : 120)),
                Duration.ofSeconds(quick ? 3 : 10),
                Duration.ofSeconds(quick ? 6 : BenchOptions.SETUP_WARMUP_CAP_SECONDS), sizeList, clientList,
                profileList, configurations, resolvedOut.toAbsolutePath().normalize(),
                (page != null ? page : defaultPage).toAbsolutePath().normalize(), reportOnly, keep,
                only == null ? List.of() : List.of(only.split(",")), state, peerScript,
                quick ? BenchOptions.QUICK_PEER_OPS : BenchOptions.PEER_OPS,
                quick ? BenchOptions.QUICK_PEER_WARM_OPS : BenchOptions.PEER_OPS, Duration.ofMinutes(quick ? 3 : 15));
    }

    @Override
    public Integer call() {
        BenchOptions options = options();
        try {
            if (!options.reportOnly()) {
                BenchPlan.of(options); // an --only naming no setup of the plan is refused before anything runs
            }
        } catch (IllegalArgumentException e) {
            throw Cli.refuse(spec, e.getMessage());
        }
        AXIS2_LOG.setLevel(Level.WARNING);
        System.setProperty("java.awt.headless", "true"); // plots are drawn off-screen, with or without a display
        return BenchMain.run(options, System.out);
    }

    private static int or(Integer value, int otherwise) {
        return value != null ? value : otherwise;
    }

    private List<Integer> integers(String option, String value, int min, int max) {
        List<Integer> values = new ArrayList<>();
        for (String w : value.split(",")) {
            int n;
            try {
                n = Integer.parseInt(w.trim());
            } catch (NumberFormatException e) {
                throw Cli.refuse(spec, option + " takes whole numbers separated by commas, not '" + w + "'");
            }
            if (n < min || n > max) {
                throw Cli.refuse(spec, option + " values must be between " + min + " and " + max + ", not " + n);
            }
            if (!values.contains(n)) {
                values.add(n);
            }
        }
        values.sort(null);
        return List.copyOf(values);
    }

    private List<String> words(String option, String value, String... allowed) {
        List<String> values = new ArrayList<>();
        for (String w : value.split(",")) {
            String match = null;
            for (String a : allowed) {
                if (a.equalsIgnoreCase(w.trim())) {
                    match = a;
                }
            }
            if (match == null) {
                throw Cli.refuse(spec, option + " takes " + String.join(", ", allowed) + " (comma-separated), not '"
                        + w.trim() + "'");
            }
            if (!values.contains(match)) {
                values.add(match);
            }
        }
        return List.copyOf(values);
    }
}
