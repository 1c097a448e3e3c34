package org.bftws.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code results.csv}: one row per point, fixed columns (RFC 4180 quoting), empty cells for figures not measured.
 * CPU columns are CPU seconds per 1,000 requests; latencies are milliseconds. It is read back by
 * {@code --report-only} to redraw plots and the page without measuring again.
 */
final class ResultsCsv {

    static final String FILE = "results.csv";
    private static final List<String> HEAD = List.of("setup", "label", "configuration", "security", "size",
            "clients", "status", "requested", "samples", "failed", "warmup_failed", "mean_ms", "p50_ms", "p99_ms",
            "max_ms", "client_req_s", "service_req_s", "wall_s");
    private static final List<String> TAIL = List.of("projected_req_s", "view_changes", "load1", "note");

    private ResultsCsv() {
    }

    static List<String> header() {
        List<String> h = new ArrayList<>(HEAD);
        PointResult.PROCESSES.forEach(p -> h.add("cpu_" + p));
        h.addAll(TAIL);
        return h;
    }

    static void write(Path file, List<PointResult> results) throws IOException {
        StringBuilder s = new StringBuilder(String.join(",", header())).append('\n');
        for (PointResult r : results) {
            List<String> cells = new ArrayList<>(List.of(r.setup().id(), r.setup().label(),
                    r.setup().kind() == BenchSetup.Kind.BFT ? r.setup().configuration().name() : "",
                    r.setup().profile(), Integer.toString(r.point().size()), Integer.toString(r.point().clients()),
                    r.status(), Integer.toString(r.requested()), Integer.toString(r.samples()),
                    Integer.toString(r.failed()), Integer.toString(r.warmupFailed())));
            boolean any = r.samples() > 0;
            cells.add(any ? number(r.latency().meanMs(), 3) : "");
            cells.add(any ? number(r.latency().p50Ms(), 3) : "");
            cells.add(any ? number(r.latency().p99Ms(), 3) : "");
            cells.add(any ? number(r.latency().maxMs(), 3) : "");
            cells.add(number(r.clientRps(), 1));
            cells.add(number(r.serviceRps(), 1));
            cells.add(number(r.wallSeconds(), 3));
            for (String p : PointResult.PROCESSES) {
                cells.add(number(r.cpu().getOrDefault(p, Double.NaN), 3));
            }
            cells.add(number(r.projectedRps(), 1));
            cells.add(number(r.viewChanges(), 0));
            cells.add(number(r.load1(), 2));
            cells.add(r.note() == null ? "" : r.note());
            s.append(String.join(",", cells.stream().map(ResultsCsv::quote).toList())).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, s, StandardCharsets.UTF_8);
    }

    static List<PointResult> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> columns = lines.isEmpty() ? List.of() : split(lines.get(0));
        if (!readable(columns)) {
            throw new IOException(file + " is not a results file of this version (its header differs)");
        }
        List<PointResult> results = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> cells = split(lines.get(i));
            if (cells.size() != columns.size()) {
                throw new IOException(file + ":" + (i + 1) + ": " + cells.size() + " cells, expected "
                        + columns.size());
            }
            Map<String, String> c = new LinkedHashMap<>();
            for (int k = 0; k < cells.size(); k++) {
                c.put(columns.get(k), cells.get(k));
            }
            try {
                results.add(row(c));
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return results;
    }

    /**
     * This version's header, or one written before some nodes had a CPU column (e.g. the 3-tier echo's relay nodes):
     * such a file is read with those nodes' CPU empty, so {@code --only} can add rows to an older run's file.
     */
    private static boolean readable(List<String> columns) {
        List<String> current = header();
        return !columns.isEmpty() && columns.size() == new java.util.HashSet<>(columns).size()
                && current.containsAll(columns)
                && current.stream().filter(h -> !columns.contains(h)).allMatch(h -> h.startsWith("cpu_"));
    }

    private static PointResult row(Map<String, String> c) {
        int samples = Integer.parseInt(c.get("samples"));
        LatencySummary latency = new LatencySummary(samples, dbl(c.get("mean_ms")), dbl(c.get("p50_ms")),
                dbl(c.get("p99_ms")), dbl(c.get("max_ms")));
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (String p : PointResult.PROCESSES) {
            double v = dbl(c.get("cpu_" + p));
            if (!Double.isNaN(v)) {
                cpu.put(p, v);
            }
        }
        return new PointResult(BenchSetup.parse(c.get("setup")), new BenchPoint(Integer.parseInt(c.get("size")),
                Integer.parseInt(c.get("clients"))), c.get("status"), Integer.parseInt(c.get("requested")), samples,
                Integer.parseInt(c.get("failed")), Integer.parseInt(c.get("warmup_failed")), latency,
                dbl(c.get("client_req_s")), dbl(c.get("service_req_s")), dbl(c.get("wall_s")), cpu,
                dbl(c.get("projected_req_s")), dbl(c.get("view_changes")), dbl(c.get("load1")), c.get("note"));
    }

    private static double dbl(String cell) {
        return cell == null || cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    static String number(double v, int decimals) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    static String quote(String cell) {
        if (cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")) {
            return '"' + cell.replace("\"", "\"\"").replace("\r", " ").replace("\n", " ") + '"';
        }
        return cell;
    }

    /** One line's cells; quoted cells may hold commas and doubled quotes (line breaks are written as spaces). */
    static List<String> split(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cell.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(ch);
            }
        }
        cells.add(cell.toString());
        return cells;
    }
}
