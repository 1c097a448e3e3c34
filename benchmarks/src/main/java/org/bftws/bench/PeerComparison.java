package org.bftws.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * BFT-WS against BFT-SMaRt at one client count: Configuration I with {@code mac} at {@value BenchPlan#HEADLINE_SIZE}
 * elements (ours) and BFT-SMaRt's microbenchmark (the peer), measured back to back on this machine. The ratios are
 * ours / the peer's, NaN where either side has no figure.
 *
 * @param clients         closed-loop clients of both
 * @param ours            C-I mac's point at that client count, if the results have it
 * @param peer            BFT-SMaRt's row (measured or skipped)
 * @param throughputRatio our req/s at the clients / the peer's ops/s (both share this machine's cores)
 * @param latencyRatio    our mean latency / the peer's
 * @param cpuRatio        our busiest replica's CPU per request / the peer's replica CPU per op (run.py gives the mean
 *                        of its 4 replicas; comparing our busiest is the target's "each replica")
 */
record PeerComparison(int clients, Optional<PointResult> ours, PeerResult peer, double throughputRatio,
                      double latencyRatio, double cpuRatio) {

    static final BenchSetup OURS = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
    static final String NO_ROWS = "no BFT-SMaRt rows (no peer.csv beside results.csv): the run predates"
            + " the suite's peer runs, or stopped before its end";

    static PeerComparison of(List<PointResult> results, PeerResult peer) {
        Optional<PointResult> ours = results.stream().filter(r -> r.setup().equals(OURS)
                && r.point().equals(new BenchPoint(BenchPlan.HEADLINE_SIZE, peer.clients()))).findFirst();
        boolean both = peer.ok() && ours.isPresent() && ours.get().ok();
        return new PeerComparison(peer.clients(), ours,
                peer, both ? ratio(ours.get().clientRps(), peer.opsPerSecond()) : Double.NaN,
                both ? ratio(ours.get().latency().meanMs(), peer.meanMs()) : Double.NaN,
                both ? ratio(ours.get().busiestNodeCpu(), peer.replicaCpuMsPerOp()) : Double.NaN);
    }

    private static double ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? Double.NaN : a / b;
    }

    /** One comparison per BFT-SMaRt row, by client count. */
    static List<PeerComparison> all(List<PointResult> results, List<PeerResult> peer) {
        List<PeerComparison> out = new ArrayList<>();
        peer.stream().sorted(Comparator.comparingInt(PeerResult::clients)).forEach(p -> out.add(of(results, p)));
        return out;
    }

    /** The comparison at {@code clients}, if BFT-SMaRt has a row there. */
    static Optional<PeerComparison> at(List<PointResult> results, List<PeerResult> peer, int clients) {
        return PeerResult.at(peer, clients).map(p -> of(results, p));
    }

    /** Why a ratio is missing: the peer's reason, or our point's; null when both were measured. */
    String missing() {
        if (!peer.ok()) {
            return "BFT-SMaRt skipped: " + peer.note();
        }
        if (ours.isEmpty()) {
            return "C-I mac not measured at " + BenchPlan.HEADLINE_SIZE + " elements and " + clients + " client"
                    + (clients == 1 ? "" : "s");
        }
        if (!ours.get().ok()) {
            return "C-I mac's point failed";
        }
        return null;
    }

    /** Our busiest replica's CPU per request, milliseconds (the CSV's seconds per 1,000 requests). */
    double oursCpuMs() {
        return ours.filter(PointResult::ok).map(PointResult::busiestNodeCpu).orElse(Double.NaN);
    }

    /** One console line. */
    String summary() {
        String head = String.format(Locale.ROOT, "%d client%s: ", clients, clients == 1 ? "" : "s");
        if (!peer.ok()) {
            return head + "BFT-SMaRt skipped: " + peer.note();
        }
        String peerFigures = String.format(Locale.ROOT, "BFT-SMaRt %s, %.2f ms, %s ms", Targets.rps(peer.opsPerSecond()),
                peer.meanMs(), ResultsCsv.number(peer.replicaCpuMsPerOp(), 3));
        String why = missing();
        if (why != null) {
            return head + peerFigures + "; " + why;
        }
        PointResult r = ours.get();
        return head + peerFigures + String.format(Locale.ROOT, "; C-I mac %s, %.2f ms, %s ms (busiest replica);"
                        + " ours / BFT-SMaRt: throughput %s, latency %s, CPU %s", Targets.rps(r.clientRps()),
                r.latency().meanMs(), ResultsCsv.number(oursCpuMs(), 3), Targets.pct(throughputRatio),
                ResultsCsv.number(latencyRatio, 2), ResultsCsv.number(cpuRatio, 2));
    }
}
