package org.bftws.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

import org.bftws.config.SecurityProfile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The suite's PNG plots (XChart), per security profile, after the paper's Fig. 7: latency against request size
 * with one client (7a), and throughput against clients for each size (7b-d), on this machine and projected to one
 * host per node. Each series is a setup: the replicated Configurations of that profile and the baselines. Points
 * that failed are left out (the tables list them).
 */
final class BenchPlots {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 420;

    private BenchPlots() {
    }

    /** Writes the plots into {@code dir}; returns the files written, in page order. */
    static List<Path> write(Path dir, List<PointResult> results) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (SecurityProfile profile : profiles(results)) {
            List<BenchSetup> setups = setupsFor(results, profile);
            String p = profile.name().toLowerCase(java.util.Locale.ROOT);
            XYChart latency = latencyChart(results, setups, p);
            if (!latency.getSeriesMap().isEmpty()) {
                files.add(save(dir.resolve("latency-" + p + ".png"), List.of(latency), 1, 1));
            }
            List<XYChart> box = new ArrayList<>();
            List<XYChart> projected = new ArrayList<>();
            for (int size : sizes(results)) {
                box.add(clientsChart(results, setups, size, "throughput on this machine, " + p,
                        "requests/s", PointResult::clientRps));
                projected.add(clientsChart(results, setups, size, "projected, one host per node, " + p,
                        "requests/s", PointResult::projectedRps));
            }
            box.removeIf(c -> c.getSeriesMap().isEmpty());
            projected.removeIf(c -> c.getSeriesMap().isEmpty());
            int columns = Math.min(2, box.size());
            if (!box.isEmpty()) {
                files.add(save(dir.resolve("throughput-" + p + ".png"), box, (box.size() + 1) / 2, columns));
            }
            if (!projected.isEmpty()) {
                files.add(save(dir.resolve("projected-" + p + ".png"), projected, (projected.size() + 1) / 2,
                        Math.min(2, projected.size())));
            }
        }
        return files;
    }

    /** Profiles of the replicated setups measured, in enum order. */
    static Set<SecurityProfile> profiles(List<PointResult> results) {
        Set<SecurityProfile> profiles = new TreeSet<>();
        results.stream().filter(r -> r.setup().kind() == BenchSetup.Kind.BFT)
                .forEach(r -> profiles.add(r.setup().security()));
        return profiles;
    }

    /** The setups shown with {@code profile}: the unsigned baseline, the signed one, and the Configurations. */
    static List<BenchSetup> setupsFor(List<PointResult> results, SecurityProfile profile) {
        Set<BenchSetup> setups = new LinkedHashSet<>();
        for (PointResult r : results) {
            BenchSetup s = r.setup();
            boolean baseline = s.kind() == BenchSetup.Kind.UNREPLICATED
                    && (s.security() == SecurityProfile.NONE || s.security() == profile);
            boolean replicated = s.kind() == BenchSetup.Kind.BFT && s.security() == profile;
            if (baseline || replicated) {
                setups.add(s);
            }
        }
        return List.copyOf(setups);
    }

    private static Set<Integer> sizes(List<PointResult> results) {
        Set<Integer> sizes = new TreeSet<>();
        results.forEach(r -> sizes.add(r.point().size()));
        return sizes;
    }

    private static XYChart latencyChart(List<PointResult> results, List<BenchSetup> setups, String profile) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Echo latency, 1 client (" + profile + ")").xAxisTitle("request size (XML elements)")
                .yAxisTitle("mean latency (ms)").build();
        style(chart);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        for (BenchSetup s : setups) {
            List<double[]> xy = new ArrayList<>();
            for (PointResult r : results) {
                if (r.setup().equals(s) && r.point().clients() == 1 && r.ok() && r.point().size() > 0) {
                    xy.add(new double[] {r.point().size(), r.latency().meanMs()});
                }
            }
            add(chart, s.label(), xy);
        }
        return chart;
    }

    private static XYChart clientsChart(List<PointResult> results, List<BenchSetup> setups, int size, String what,
                                        String unit, ToDoubleFunction<PointResult> figure) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(size + " element" + (size == 1 ? "" : "s") + ": " + what).xAxisTitle("concurrent clients")
                .yAxisTitle(unit).build();
        style(chart);
        for (BenchSetup s : setups) {
            List<double[]> xy = new ArrayList<>();
            for (PointResult r : results) {
                double y = figure.applyAsDouble(r);
                if (r.setup().equals(s) && r.point().size() == size && r.ok() && !Double.isNaN(y)) {
                    xy.add(new double[] {r.point().clients(), y});
                }
            }
            add(chart, s.label(), xy);
        }
        return chart;
    }

    private static void style(XYChart chart) {
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setPlotBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setMarkerSize(7);
    }

    private static void add(XYChart chart, String name, List<double[]> xy) {
        if (xy.isEmpty()) {
            return;
        }
        xy.sort((a, b) -> Double.compare(a[0], b[0]));
        double[] x = xy.stream().mapToDouble(p -> p[0]).toArray();
        double[] y = xy.stream().mapToDouble(p -> p[1]).toArray();
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.CIRCLE);
    }

    private static Path save(Path file, List<XYChart> charts, int rows, int columns) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            if (charts.size() == 1) {
                BitmapEncoder.saveBitmap(charts.get(0), out, BitmapEncoder.BitmapFormat.PNG);
            } else {
                BitmapEncoder.saveBitmap(charts, rows, columns, out, BitmapEncoder.BitmapFormat.PNG);
            }
        }
        return file;
    }
}
