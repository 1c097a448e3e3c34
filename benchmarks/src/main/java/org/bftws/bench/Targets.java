package org.bftws.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * The targets (Configuration I, {@value BenchPlan#HEADLINE_CLIENTS} clients, small requests of
 * {@value BenchPlan#HEADLINE_SIZE} elements, against no replication with the same security, and against BFT-SMaRt
 * measured back to back) and the launcher's last line,
 * {@code latency ratio L, projected throughput ratio P, box throughput T req/s}.
 */
final class Targets {

    static final double MAX_LATENCY_RATIO = 2.0;
    static final double MIN_PROJECTED_RATIO = 0.70;
    /** C-I mac's throughput on this machine at 8 clients, against BFT-SMaRt's at 8 clients (issue 20). */
    static final double MIN_PEER_BOX_RATIO = 0.50;
    /** Each replica's CPU per request at 8 clients, against a BFT-SMaRt replica's (issue 20). */
    static final double MAX_PEER_CPU_RATIO = 3.0;
    /** The ordered echo's mean latency with 1 client, against BFT-SMaRt's with 1 client (issue 18). */
    static final double MAX_PEER_LATENCY_RATIO = 3.0;
    static final double MIN_WSSEC_RATIO = 0.25;
    static final BenchPoint HEADLINE = new BenchPoint(BenchPlan.HEADLINE_SIZE, BenchPlan.HEADLINE_CLIENTS);

    /** One target: what it asks, the figure measured, and whether it is met (null: no goal, or not measured). */
    record Row(String target, String goal, String figure, Boolean met) {
    }

    private final Optional<Comparison> mac;
    private final Optional<Comparison> wssec;
    private final Optional<PeerComparison> peerEight;
    private final Optional<PeerComparison> peerOne;

    Targets(List<PointResult> results, List<PeerResult> peer) {
        this.mac = Comparison.find(results, Configuration.I, SecurityProfile.MAC, HEADLINE);
        this.wssec = Comparison.find(results, Configuration.I, SecurityProfile.WSSEC, HEADLINE);
        this.peerEight = PeerComparison.at(results, peer, BenchPlan.HEADLINE_CLIENTS);
        this.peerOne = PeerComparison.at(results, peer, 1);
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("`mac` latency, C-I / no replication", "at most " + fmt(MAX_LATENCY_RATIO)
                + " (paper: about 3)", mac.map(c -> fmt(c.latencyRatio()) + " (" + ms(c.replicated()) + " / "
                + ms(c.baseline()) + ")").orElse("not measured"),
                mac.map(c -> met(c.latencyRatio(), c.latencyRatio() <= MAX_LATENCY_RATIO)).orElse(null)));
        rows.add(new Row("`mac` throughput projected to one host per node, C-I / no replication",
                "at least " + pct(MIN_PROJECTED_RATIO) + " (paper: about 50 %)", mac.map(c -> pct(c.projectedRatio())
                + " (" + rps(c.replicated().projectedRps()) + " / " + rps(c.baseline().projectedRps()) + ")")
                .orElse("not measured"), mac.map(c -> met(c.projectedRatio(),
                c.projectedRatio() >= MIN_PROJECTED_RATIO)).orElse(null)));
        rows.add(peerRow("`mac` throughput on this machine, C-I / BFT-SMaRt, " + BenchPlan.HEADLINE_CLIENTS
                + " clients", "at least " + pct(MIN_PEER_BOX_RATIO), peerEight, PeerComparison::throughputRatio,
                c -> pct(c.throughputRatio()) + " (" + rps(c.ours().get().clientRps()) + " / "
                        + rps(c.peer().opsPerSecond()) + ")", c -> c.throughputRatio() >= MIN_PEER_BOX_RATIO));
        rows.add(peerRow("`mac` CPU per request of each replica, C-I / BFT-SMaRt, " + BenchPlan.HEADLINE_CLIENTS
                + " clients", "at most " + fmt(MAX_PEER_CPU_RATIO), peerEight, PeerComparison::cpuRatio,
                c -> fmt(c.cpuRatio()) + " (busiest replica " + ms(c.oursCpuMs(), 3) + " / " + ms(c.peer()
                        .replicaCpuMsPerOp(), 3) + " per BFT-SMaRt replica)", c -> c.cpuRatio() <= MAX_PEER_CPU_RATIO));
        rows.add(peerRow("`mac` mean latency, C-I / BFT-SMaRt, 1 client", "at most " + fmt(MAX_PEER_LATENCY_RATIO),
                peerOne, PeerComparison::latencyRatio, c -> fmt(c.latencyRatio()) + " (" + ms(c.ours().get().latency()
                        .meanMs(), 2) + " / " + ms(c.peer().meanMs(), 2) + ")",
                c -> c.latencyRatio() <= MAX_PEER_LATENCY_RATIO));
        rows.add(new Row("`wssec` throughput on this machine, C-I / signed no replication", "at least "
                + pct(MIN_WSSEC_RATIO), wssec.map(c -> pct(c.boxRatio()) + " (" + rps(c.replicated().clientRps())
                + " / " + rps(c.baseline().clientRps()) + "; projected " + pct(c.projectedRatio()) + ")")
                .orElse("not measured"), wssec.map(c -> met(c.boxRatio(), c.boxRatio() >= MIN_WSSEC_RATIO))
                .orElse(null)));
        return rows;
    }

    /** A target against BFT-SMaRt: its figure when both sides were measured, else why not. */
    private static Row peerRow(String target, String goal, Optional<PeerComparison> cmp,
                               java.util.function.ToDoubleFunction<PeerComparison> ratio,
                               java.util.function.Function<PeerComparison, String> figure,
                               java.util.function.Predicate<PeerComparison> ok) {
        if (cmp.isEmpty()) {
            return new Row(target, goal, "not measured: this run has no BFT-SMaRt rows", null);
        }
        PeerComparison c = cmp.get();
        String why = c.missing();
        if (why != null) {
            return new Row(target, goal, "not measured: " + why, null);
        }
        double value = ratio.applyAsDouble(c);
        return Double.isNaN(value) ? new Row(target, goal, "n/a (a figure is missing)", null)
                : new Row(target, goal, figure.apply(c), ok.test(c));
    }

    /** The launcher's last line; figures that could not be measured are {@code n/a}. */
    String finalLine() {
        return String.format(Locale.ROOT, "latency ratio %s, projected throughput ratio %s, box throughput %s req/s",
                mac.map(c -> fmt(c.latencyRatio())).orElse("n/a"), mac.map(c -> fmt(c.projectedRatio()))
                        .orElse("n/a"), mac.map(c -> number(c.replicated().clientRps(), 1)).orElse("n/a"));
    }

    /** True when the three figures of the last line were measured. */
    boolean headlineMeasured() {
        return mac.isPresent() && !Double.isNaN(mac.get().latencyRatio())
                && !Double.isNaN(mac.get().projectedRatio()) && mac.get().replicated().ok();
    }

    private static Boolean met(double value, boolean ok) {
        return Double.isNaN(value) ? null : ok;
    }

    private static String fmt(double v) {
        return number(v, 2);
    }

    private static String number(double v, int decimals) {
        String s = ResultsCsv.number(v, decimals);
        return s.isEmpty() ? "n/a" : s;
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.0f %%", v * 100);
    }

    static String rps(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f req/s", v);
    }

    private static String ms(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f ms", v);
    }

    private static String ms(PointResult r) {
        return r.samples() == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f ms", r.latency().meanMs());
    }
}
