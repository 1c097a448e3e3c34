package org.bftws.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/** The Markdown tables of the results page: targets, ratios per profile, and every point of every setup. */
final class ResultTables {

    private ResultTables() {
    }

    static String targets(Targets targets) {
        StringBuilder s = new StringBuilder("| target | goal | measured | met |\n| --- | --- | --- | --- |\n");
        for (Targets.Row r : targets.rows()) {
            s.append("| ").append(r.target()).append(" | ").append(r.goal()).append(" | ").append(cell(r.figure()))
                    .append(" | ").append(r.met() == null ? "-" : r.met() ? "yes" : "**no**").append(" |\n");
        }
        return s.toString();
    }

    /**
     * BFT-SMaRt against C-I mac at {@value BenchPlan#HEADLINE_SIZE} elements: for each of the peer's client counts,
     * its row, ours, and ours / its.
     */
    static String peer(List<PointResult> results, List<PeerResult> peer) {
        StringBuilder s = new StringBuilder("| clients | system | req/s | mean latency | CPU per request of a replica |"
                + " load | status |\n| ---: | --- | ---: | ---: | ---: | ---: | --- |\n");
        for (PeerComparison c : PeerComparison.all(results, peer)) {
            PeerResult p = c.peer();
            s.append("| ").append(c.clients()).append(" | BFT-SMaRt, ").append(p.requestBytes())
                    .append("-byte requests | ").append(dash(ResultsCsv.number(p.opsPerSecond(), 0)))
                    .append(" | ").append(msCell(p.meanMs(), 2)).append(" | ")
                    .append(msCell(p.replicaCpuMsPerOp(), 3)).append(p.ok() ? " (mean of 4)" : "")
                    .append(" | ").append(dash(ResultsCsv.number(p.load1(), 1))).append(" | ")
                    .append(p.ok() ? "ok, " + p.measured() + (p.note().isEmpty() ? "" : " (" + cell(p.note()) + ")")
                            : "**skipped**: " + cell(p.note())).append(" |\n");
            Optional<PointResult> ours = c.ours();
            s.append("| ").append(c.clients()).append(" | BFT-WS C-I `mac`, ").append(BenchPlan.HEADLINE_SIZE)
                    .append(" elements | ");
            if (ours.isPresent() && ours.get().ok()) {
                PointResult r = ours.get();
                s.append(dash(ResultsCsv.number(r.clientRps(), 0))).append(" | ")
                        .append(msCell(r.latency().meanMs(), 2)).append(" | ").append(msCell(c.oursCpuMs(), 3))
                        .append(" (busiest of ").append(replicas(r)).append(")").append(" | ")
                        .append(dash(ResultsCsv.number(r.load1(), 1))).append(" | ").append(status(r));
            } else {
                s.append("- | - | - | - | ").append(ours.map(ResultTables::status).orElse("not measured"));
            }
            s.append(" |\n| ").append(c.clients()).append(" | *BFT-WS / BFT-SMaRt* | ")
                    .append(ratioCell(Targets.pct(c.throughputRatio()))).append(" | ")
                    .append(ratioCell(ResultsCsv.number(c.latencyRatio(), 2))).append(" | ")
                    .append(ratioCell(ResultsCsv.number(c.cpuRatio(), 2))).append(" | | |\n");
        }
        return s.toString();
    }

    /** Nodes with a CPU figure (the client's is the suite's JVM). */
    private static long replicas(PointResult r) {
        return r.cpu().keySet().stream().filter(n -> !n.equals(CpuSamples.CLIENT)).count();
    }

    private static String msCell(double v, int decimals) {
        String n = ResultsCsv.number(v, decimals);
        return n.isEmpty() ? "-" : n + " ms";
    }

    private static String ratioCell(String v) {
        return v.isEmpty() || v.equals("n/a") ? "-" : "*" + v + "*";
    }

    /** Text in a table cell: a pipe would end the cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    /**
     * One table per profile: for each point, each Configuration's latency ratio, throughput ratio on this machine
     * and projected throughput ratio against the unreplicated node with the same profile.
     */
    static String ratios(List<PointResult> results) {
        StringBuilder s = new StringBuilder();
        for (SecurityProfile profile : BenchPlots.profiles(results)) {
            List<Configuration> configs = new ArrayList<>();
            for (Configuration c : Configuration.values()) {
                if (results.stream().anyMatch(r -> r.setup().equals(BenchSetup.bft(c, profile)))) {
                    configs.add(c);
                }
            }
            boolean threeTier = results.stream().anyMatch(r -> r.setup().equals(BenchSetup.threeTier(profile)));
            String p = profile.name().toLowerCase(Locale.ROOT);
            s.append("\n`").append(p).append("`, each cell: latency ratio / throughput ratio on this machine /")
                    .append(" projected throughput ratio (one host per node)")
                    .append(threeTier ? "; the 3-tier echo against the client-server echo (C-I) at the same point" : "")
                    .append("\n\n| elements | clients |");
            configs.forEach(c -> s.append(" C-").append(c).append(" |"));
            s.append(threeTier ? " 3-tier / C-I |" : "");
            s.append("\n| --- | --- |");
            configs.forEach(c -> s.append(" --- |"));
            s.append(threeTier ? " --- |" : "");
            s.append('\n');
            for (BenchPoint point : points(results, BenchSetup.unreplicated(profile))) {
                s.append("| ").append(point.size()).append(" | ").append(point.clients()).append(" |");
                for (Configuration c : configs) {
                    Optional<Comparison> cmp = Comparison.find(results, c, profile, point);
                    s.append(' ').append(cmp.map(ResultTables::triple).orElse("-")).append(" |");
                }
                if (threeTier) {
                    s.append(' ').append(Comparison.threeTier(results, profile, point).map(ResultTables::triple)
                            .orElse("-")).append(" |");
                }
                s.append('\n');
            }
        }
        return s.toString();
    }

    private static String triple(Comparison c) {
        if (!c.replicated().ok()) {
            return "failed";
        }
        return ResultsCsv.number(c.latencyRatio(), 2) + " / " + Targets.pct(c.boxRatio()) + " / "
                + Targets.pct(c.projectedRatio());
    }

    /** Every point of every setup, grouped by setup, with the per-process CPU. */
    static String points(List<PointResult> results) {
        StringBuilder s = new StringBuilder();
        Set<BenchSetup> setups = new LinkedHashSet<>();
        results.forEach(r -> setups.add(r.setup()));
        for (BenchSetup setup : setups) {
            List<PointResult> rows = results.stream().filter(r -> r.setup().equals(setup)).toList();
            List<String> nodes = nodeNames(rows);
            s.append("\n**").append(setup.label()).append("** (`").append(setup.id()).append("`); node CPU in order ")
                    .append(nodes.isEmpty() ? "-" : String.join(", ", nodes)).append("\n\n")
                    .append("| elements | clients | samples | mean ms | p50 ms | p99 ms | req/s at clients |")
                    .append(" req/s at service | node CPU s / 1,000 req | client CPU s / 1,000 req |")
                    .append(" projected req/s | view changes | load | status |\n")
                    .append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |\n");
            for (PointResult r : rows) {
                boolean any = r.samples() > 0;
                List<String> cpu = new ArrayList<>();
                for (String n : nodes) {
                    cpu.add(dash(ResultsCsv.number(r.cpu().getOrDefault(n, Double.NaN), 2)));
                }
                s.append("| ").append(r.point().size()).append(" | ").append(r.point().clients()).append(" | ")
                        .append(r.samples()).append(r.samples() < r.requested() ? " of " + r.requested() : "")
                        .append(" | ").append(any ? ResultsCsv.number(r.latency().meanMs(), 2) : "-")
                        .append(" | ").append(any ? ResultsCsv.number(r.latency().p50Ms(), 2) : "-")
                        .append(" | ").append(any ? ResultsCsv.number(r.latency().p99Ms(), 2) : "-")
                        .append(" | ").append(dash(ResultsCsv.number(r.clientRps(), 1)))
                        .append(" | ").append(dash(ResultsCsv.number(r.serviceRps(), 1)))
                        .append(" | ").append(cpu.isEmpty() ? "-" : String.join(" / ", cpu))
                        .append(" | ").append(dash(ResultsCsv.number(r.cpu().getOrDefault(CpuSamples.CLIENT,
                                Double.NaN), 2)))
                        .append(" | ").append(dash(ResultsCsv.number(r.projectedRps(), 0)))
                        .append(" | ").append(dash(ResultsCsv.number(r.viewChanges(), 0)))
                        .append(" | ").append(dash(ResultsCsv.number(r.load1(), 1)))
                        .append(" | ").append(status(r)).append(" |\n");
            }
        }
        return s.toString();
    }

    private static String status(PointResult r) {
        if (r.ok()) {
            return r.capped() ? "ok (time cap)" : "ok";
        }
        String note = r.note() == null || r.note().isEmpty() ? "" : ": " + r.note();
        if (note.length() > 200) {
            note = note.substring(0, 200) + "...";
        }
        return "**" + r.status() + "**" + note.replace("|", "\\|");
    }

    /** Node names with a CPU figure in any row, in {@link PointResult#PROCESSES} order. */
    private static List<String> nodeNames(List<PointResult> rows) {
        List<String> names = new ArrayList<>();
        for (String p : PointResult.PROCESSES) {
            if (!p.equals(CpuSamples.CLIENT) && rows.stream().map(PointResult::cpu)
                    .anyMatch((Map<String, Double> m) -> m.containsKey(p))) {
                names.add(p);
            }
        }
        return names;
    }

    private static List<BenchPoint> points(List<PointResult> results, BenchSetup setup) {
        Set<BenchPoint> points = new LinkedHashSet<>();
        results.stream().filter(r -> r.setup().equals(setup)).forEach(r -> points.add(r.point()));
        return List.copyOf(points);
    }

    private static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }
}
