package org.bftws.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.bftws.server.Arguments;
import org.bftws.server.UsageException;

/**
 * {@code ./bftws bench} options. The full suite is the paper's grid (section 4.1): request sizes 1 to 1,000
 * elements, 1 to 8 clients, Configurations I, II, III, both security profiles and the baselines; {@code --quick} is a
 * small version (see {@link BenchPlan#quick}).
 *
 * @param quick          the small plan, under three minutes
 * @param samples        measured requests per point
 * @param warmup         unmeasured requests before each point (they also create the point's WS-RM sequences)
 * @param setupWarmup    unmeasured requests after a setup's JVMs start, before its first point (the JIT's share)
 * @param measureCap     a point stops sending after this long, with fewer samples (recorded), so a slow point
 *                       cannot hold up the suite
 * @param warmupCap      a point's warm-up stops after this long
 * @param setupWarmupCap a setup's warm-up stops after this long
 * @param sizes          request sizes (elements) of the full plan
 * @param clients        client counts of the full plan
 * @param profiles       security profiles of the full plan's replicated and signed setups
 * @param configurations Configurations of the full plan
 * @param out            where CSV and PNG files go
 * @param page           the results page written from them
 * @param reportOnly     no measurement: rewrite plots and page from {@code out/results.csv}
 * @param keep           keep every setup's run directory (kept anyway when something failed)
 * @param only           setup ids to run (empty: all of the plan); with it, the other setups' rows of an existing
 *                       results.csv are kept, so one setup can be measured again
 * @param home           the state directory (.bftws): keys and run directories
 * @param peer           BFT-SMaRt's runner script ({@code run.py}), null with {@code --no-peer}
 * @param peerOps        operations per client of each peer run (BFT-SMaRt's client measures the second half)
 * @param peerWarmOps    operations per client of the peer's unmeasured warm-up run (8 clients)
 * @param peerTimeout    a peer run that has not printed its line after this long is stopped and recorded as skipped
 */
record BenchOptions(boolean quick, int samples, int warmup, int setupWarmup, Duration measureCap, Duration warmupCap,
                    Duration setupWarmupCap, List<Integer> sizes, List<Integer> clients,
                    List<SecurityProfile> profiles, List<Configuration> configurations, Path out, Path page,
                    boolean reportOnly, boolean keep, List<String> only, Path home, Path peer, int peerOps,
                    int peerWarmOps, Duration peerTimeout) {

    /** Where BFT-SMaRt's runner is, from the checkout's root (the project's shared folder beside the checkouts). */
    static final String PEER_SCRIPT = "../shared/peers/bftsmart/run.py";

    static final String USAGE = """
            usage: ./bftws bench [--quick] [--samples N] [--warmup W] [--setup-warmup W] [--cap SECONDS]
                                 [--sizes 1,10,100,1000] [--clients 1,2,4,8] [--profiles [none,]mac,wssec]
                                 [--configs I,II,III] [--only SETUP,..] [--out DIR] [--page FILE] [--report-only] [--keep]
                                 [--peer PATH | --no-peer]
              runs the echo benchmark suite on this machine's testbed (one JVM per node, loopback), and BFT-SMaRt's
              own microbenchmark right after C-I mac for comparison; writes results.csv, peer.csv and PNG plots to
              DIR and the results page FILE; the last line is
              'latency ratio L, projected throughput ratio P, box throughput T req/s'
              (Configuration I, mac, 8 clients, 10 elements, against no replication with the same security)
              --quick            a small version (about 4 minutes): 10 elements, mac and wssec, C-I and the signed
                                 baselines, BFT-SMaRt with short runs; writes to .bftws/bench-quick unless
                                 --out/--page say otherwise
              --samples N        measured requests per point (default 1000; quick 300)
              --warmup W         unmeasured requests before each point (default 200; quick 100)
              --setup-warmup W   unmeasured requests after a setup's nodes start, at most 3 minutes (default 20000;
                                 quick 400, at most 6 s)
              --cap SECONDS      a point stops sending after this long, with fewer samples (default 120; quick 8)
              --sizes, --clients, --profiles, --configs   the full plan's grid (comma-separated)
              --out DIR          CSV and PNG files (default docs/bench)
              --page FILE        the results page (default docs/benchmarks.md)
              --only SETUP,..    run only these setups of the plan (ids as in results.csv: unrep-none, unrep-mac,
                                 c1-mac, c2-wssec, ..., and bftsmart for the peer); the other setups' rows of
                                 DIR/results.csv, and DIR/peer.csv unless bftsmart is named, are kept
              --report-only      measure nothing: rewrite the plots and the page from DIR/results.csv and peer.csv
              --keep             keep every setup's run directory (logs, replicas.xml)
              --peer PATH        BFT-SMaRt's runner (default ../shared/peers/bftsmart/run.py from the checkout's
                                 root), run at 8 and 1 clients; when it is missing or fails, the peer's rows say
                                 why and the suite goes on
              --no-peer          do not run BFT-SMaRt (the page says so)""";

    static BenchOptions parse(String[] argv) {
        Arguments args = new Arguments(argv);
        boolean quick = List.of(argv).contains("--quick");
        Integer samples = null;
        Integer warmup = null;
        Integer setupWarmup = null;
        Integer cap = null;
        List<Integer> sizes = List.of(1, 10, 100, 1000);
        List<Integer> clients = List.of(1, 2, 4, 8);
        List<SecurityProfile> profiles = List.of(SecurityProfile.MAC, SecurityProfile.WSSEC);
        List<Configuration> configurations = List.of(Configuration.I, Configuration.II, Configuration.III);
        Path home = Arguments.home();
        Path out = null;
        Path page = null;
        boolean reportOnly = false;
        boolean keep = false;
        List<String> only = List.of();
        Path peer = null;
        boolean noPeer = false;
        while (args.hasNext()) {
            String option = args.option();
            switch (option) {
                case "--quick" -> { }
                case "--samples" -> samples = args.integer(option, 1, 1_000_000);
                case "--warmup" -> warmup = args.integer(option, 0, 1_000_000);
                case "--setup-warmup" -> setupWarmup = args.integer(option, 0, 1_000_000);
                case "--cap" -> cap = args.integer(option, 1, 86_400);
                case "--sizes" -> sizes = integers(args, option, 0, 100_000);
                case "--clients" -> clients = integers(args, option, 1, 256);
                case "--profiles" -> profiles = words(args, option, "none", "mac", "wssec").stream()
                        .map(p -> SecurityProfile.valueOf(p.toUpperCase(Locale.ROOT))).toList();
                case "--configs" -> configurations = words(args, option, "I", "II", "III").stream()
                        .map(Configuration::valueOf).toList();
                case "--out" -> out = args.path(option);
                case "--page" -> page = args.path(option);
                case "--report-only" -> reportOnly = true;
                case "--keep" -> keep = true;
                case "--only" -> only = List.of(args.value(option).split(","));
                case "--home" -> home = args.path(option);
                case "--peer" -> peer = args.path(option);
                case "--no-peer" -> noPeer = true;
                default -> throw new UsageException("unknown option " + option);
            }
        }
        if (noPeer && peer != null) {
            throw new UsageException("--peer and --no-peer contradict each other");
        }
        Path root = home.toAbsolutePath().normalize().getParent();
        Path peerScript = noPeer ? null : (peer != null ? peer : root.resolve(PEER_SCRIPT)).toAbsolutePath()
                .normalize();
        Path defaultOut = quick ? home.resolve("bench-quick") : root.resolve("docs").resolve("bench");
        Path resolvedOut = out != null ? out : page != null ? page.toAbsolutePath().getParent() : defaultOut;
        Path defaultPage = quick ? resolvedOut.resolve("benchmarks.md") : root.resolve("docs").resolve("benchmarks.md");
        return new BenchOptions(quick, or(samples, quick ? 300 : 1000), or(warmup, quick ? 100 : 200),
                or(setupWarmup, quick ? 400 : 20_000), Duration.ofSeconds(or(cap, quick ? 8 : 120)),
                Duration.ofSeconds(quick ? 3 : 10), Duration.ofSeconds(quick ? 6 : SETUP_WARMUP_CAP_SECONDS),
                sizes, clients, profiles, configurations, resolvedOut.toAbsolutePath().normalize(),
                (page != null ? page : defaultPage).toAbsolutePath().normalize(), reportOnly, keep, only, home,
                peerScript, quick ? QUICK_PEER_OPS : PEER_OPS, quick ? QUICK_PEER_WARM_OPS : PEER_OPS,
                Duration.ofMinutes(quick ? 3 : 15));
    }

    /**
     * Operations per client of a full run's peer runs, and of its warm-up: run.py's defaults (its README's figures
     * are from them), about 3 minutes per run here.
     */
    static final int PEER_OPS = 10_000;
    /**
     * The quick suite's peer runs: a few hundred measured operations per client after a warm-up of 8 x 500; each
     * run still pays about 20 s for starting 4 replica JVMs and the client's (measured: 23 s with no warm-up).
     */
    static final int QUICK_PEER_OPS = 600;
    static final int QUICK_PEER_WARM_OPS = 500;

    /**
     * How long a full run's setup warms up at most. Five JVMs on two cores take minutes to compile their request paths:
     * the testbed at 8 clients gave 86, 136 and 223 req/s after 3,000, 16,000 and 40,000 warm-up requests (sixth
     * session), and with 2,000 (45 s) the first points of every replicated setup were measured cold.
     */
    static final int SETUP_WARMUP_CAP_SECONDS = 180;

    private static int or(Integer value, int otherwise) {
        return value != null ? value : otherwise;
    }

    private static List<Integer> integers(Arguments args, String option, int min, int max) {
        List<Integer> values = new ArrayList<>();
        for (String w : args.value(option).split(",")) {
            try {
                int n = Integer.parseInt(w.trim());
                if (n < min || n > max) {
                    throw new UsageException(option + " values must be between " + min + " and " + max + ", not " + n);
                }
                if (!values.contains(n)) {
                    values.add(n);
                }
            } catch (NumberFormatException e) {
                throw new UsageException(option + " takes whole numbers separated by commas, not '" + w + "'");
            }
        }
        values.sort(null);
        return List.copyOf(values);
    }

    private static List<String> words(Arguments args, String option, String... allowed) {
        List<String> values = new ArrayList<>();
        for (String w : args.value(option).split(",")) {
            String match = null;
            for (String a : allowed) {
                if (a.equalsIgnoreCase(w.trim())) {
                    match = a;
                }
            }
            if (match == null) {
                throw new UsageException(option + " takes " + String.join(", ", allowed) + " (comma-separated), not '"
                        + w.trim() + "'");
            }
            if (!values.contains(match)) {
                values.add(match);
            }
        }
        return List.copyOf(values);
    }
}
