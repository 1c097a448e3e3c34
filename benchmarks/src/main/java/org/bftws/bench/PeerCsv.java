package org.bftws.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code peer.csv} beside {@code results.csv}: the BFT-SMaRt rows of the run (one per client count, measured or
 * skipped with the reason), so {@code --report-only} can write the page's comparison again. A file of its own
 * because its figures are not BFT-WS points (no setup, no per-node CPU) and results.csv's columns stay as they were.
 */
final class PeerCsv {

    static final String FILE = "peer.csv";
    private static final List<String> HEADER = List.of("peer", "clients", "request_bytes", "status", "ops_s", "mean_ms",
            "replica_cpu_ms_op", "measured", "load1", "note");

    private PeerCsv() {
    }

    static void write(Path file, List<PeerResult> rows) throws IOException {
        StringBuilder s = new StringBuilder(String.join(",", HEADER)).append('\n');
        for (PeerResult r : rows) {
            List<String> cells = List.of(PeerResult.ID, Integer.toString(r.clients()),
                    Integer.toString(r.requestBytes()), r.status(), ResultsCsv.number(r.opsPerSecond(), 1),
                    ResultsCsv.number(r.meanMs(), 3), ResultsCsv.number(r.replicaCpuMsPerOp(), 3), r.measured(),
                    ResultsCsv.number(r.load1(), 2), r.note() == null ? "" : r.note());
            s.append(String.join(",", cells.stream().map(ResultsCsv::quote).toList())).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, s, StandardCharsets.UTF_8);
    }

    /** The rows of {@code file}; none when there is no file (a run from before the suite measured the peer). */
    static List<PeerResult> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !ResultsCsv.split(lines.get(0)).equals(HEADER)) {
            throw new IOException(file + " is not a peer file of this version (its header differs)");
        }
        List<PeerResult> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> c = ResultsCsv.split(lines.get(i));
            if (c.size() != HEADER.size()) {
                throw new IOException(file + ":" + (i + 1) + ": " + c.size() + " cells, expected " + HEADER.size());
            }
            try {
                rows.add(new PeerResult(Integer.parseInt(c.get(1)), Integer.parseInt(c.get(2)), c.get(3),
                        dbl(c.get(4)), dbl(c.get(5)), dbl(c.get(6)), c.get(7), dbl(c.get(8)), c.get(9)));
            } catch (RuntimeException e) {
                throw new IOException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    /**
     * After a run: the rows it measured replace the file's when its plan ran the peer (the whole suite, {@code --quick},
     * or {@code --only} naming {@value PeerResult#ID}); an {@code --only} run without the peer leaves the file as it
     * was, as it leaves the other setups' rows of results.csv.
     */
    static void update(Path file, BenchPlan plan, List<PeerResult> measured) throws IOException {
        if (plan.peer().isPresent()) {
            write(file, measured);
        }
    }

    private static double dbl(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }
}
