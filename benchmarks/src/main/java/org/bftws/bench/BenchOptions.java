package org.bftws.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

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

    /** The options of command line {@code args}; a bad one throws picocli's ParameterException. */
    static BenchOptions parse(String... args) {
        return Cli.parse(new BenchCommand(), args).options();
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
}
