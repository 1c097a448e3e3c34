package org.bftws.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * The targets (Configuration I, {@value BenchPlan#HEADLINE_CLIENTS} clients, small requests of
 * {@value BenchPlan#HEADLINE_SIZE} elements, against no replication with the same security) and the launcher's last
 * line, {@code latency ratio L, projected throughput ratio P, box throughput T req/s}.
 */
final class Targets {

    static final double MAX_LATENCY_RATIO = 2.0;
    static final double MIN_PROJECTED_RATIO = 0.70;
    /** BFT-SMaRt (binary protocol, 4 replicas, loopback) with 8 clients on this machine (ARCHITECTURE.md). */
    static final double BFT_SMART_BOX_RPS = 1650;
    static final double MIN_WSSEC_RATIO = 0.25;
    static final BenchPoint HEADLINE = new BenchPoint(BenchPlan.HEADLINE_SIZE, BenchPlan.HEADLINE_CLIENTS);

    /** One target: what it asks, the figure measured, and whether it is met (null: no goal, or not measured). */
    record Row(String target, String goal, String figure, Boolean met) {
    }

    private final Optional<Comparison> mac;
    private final Optional<Comparison> wssec;

    Targets(List<PointResult> results) {
        this.mac = Comparison.find(results, Configuration.I, SecurityProfile.MAC, HEADLINE);
        this.wssec = Comparison.find(results, Configuration.I, SecurityProfile.WSSEC, HEADLINE);
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
        rows.add(new Row("`mac` throughput on this 2-core machine, C-I", "as close to " + rps(BFT_SMART_BOX_RPS)
                + " (BFT-SMaRt here) as we can", mac.map(c -> rps(c.replicated().clientRps()) + " ("
                + pct(c.replicated().clientRps() / BFT_SMART_BOX_RPS) + " of BFT-SMaRt; box ratio to no replication "
                + pct(c.boxRatio()) + ")").orElse("not measured"), null));
        rows.add(new Row("`wssec` throughput on this machine, C-I / signed no replication", "at least "
                + pct(MIN_WSSEC_RATIO), wssec.map(c -> pct(c.boxRatio()) + " (" + rps(c.replicated().clientRps())
                + " / " + rps(c.baseline().clientRps()) + "; projected " + pct(c.projectedRatio()) + ")")
                .orElse("not measured"), wssec.map(c -> met(c.boxRatio(), c.boxRatio() >= MIN_WSSEC_RATIO))
                .orElse(null)));
        return rows;
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

    private static String ms(PointResult r) {
        return r.samples() == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f ms", r.latency().meanMs());
    }
}
