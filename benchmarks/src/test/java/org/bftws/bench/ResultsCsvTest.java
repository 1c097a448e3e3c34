package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {

    @TempDir
    Path dir;

    @Test
    void resultsWrittenAndReadBackKeepEveryFigureAndReason() throws IOException {
        BenchSetup c3 = BenchSetup.bft(Configuration.III, SecurityProfile.WSSEC);
        PointResult ok = SampleResults.ok(c3, 100, 4, 12.3456, 321.5, 4.25);
        PointResult failed = SampleResults.failed(BenchSetup.bft(Configuration.II, SecurityProfile.MAC), 1, 8,
                "setup failed: replica3 ended before it was ready, \"port in use\"");
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, List.of(ok, failed));
        List<PointResult> back = ResultsCsv.read(file);
        assertEquals(2, back.size());
        PointResult r = back.get(0);
        assertEquals(c3, r.setup());
        assertEquals(new BenchPoint(100, 4), r.point());
        assertEquals(12.346, r.latency().meanMs(), 1e-9, "three decimals kept");
        assertEquals(321.5, r.clientRps(), 1e-9);
        assertEquals(4.25, r.cpu().get("replica3"), 1e-9);
        assertEquals(2.125, r.cpu().get("exec2"), 1e-9);
        assertEquals(3.5, r.cpu().get(CpuSamples.CLIENT), 1e-9);
        assertEquals(235.3, r.projectedRps(), 1e-9);
        PointResult f = back.get(1);
        assertEquals(PointResult.FAILED, f.status());
        assertEquals(failed.note(), f.note(), "commas and quotes in a reason survive");
        assertTrue(Double.isNaN(f.clientRps()), "a figure not measured stays empty, not zero");
        assertTrue(f.cpu().isEmpty());
    }

    @Test
    void aFileOfAnotherLayoutIsRefusedWithItsName() throws IOException {
        Path file = dir.resolve("results.csv");
        Files.writeString(file, "setup,size,mean\nc1-mac,10,3.2\n");
        IOException e = assertThrows(IOException.class, () -> ResultsCsv.read(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aFileWrittenBeforeSomeNodesHadACpuColumnIsReadWithTheirCpuEmpty() throws IOException {
        BenchSetup c1 = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, List.of(SampleResults.ok(c1, 10, 8, 150.5, 52.3, 8.6)));
        // the same file as an older version wrote it: no relay columns (the 3-tier echo's nodes came later)
        List<String> lines = java.nio.file.Files.readAllLines(file);
        List<String> header = ResultsCsv.split(lines.get(0));
        List<Integer> relay = new java.util.ArrayList<>();
        for (int k = 0; k < header.size(); k++) {
            if (header.get(k).startsWith("cpu_relay")) {
                relay.add(k);
            }
        }
        StringBuilder older = new StringBuilder();
        for (String line : lines) {
            List<String> cells = new java.util.ArrayList<>(ResultsCsv.split(line));
            for (int k = relay.size() - 1; k >= 0; k--) {
                cells.remove((int) relay.get(k));
            }
            older.append(String.join(",", cells.stream().map(c -> c.contains(",") ? "\"" + c + "\"" : c).toList()))
                    .append('\n');
        }
        java.nio.file.Files.writeString(file, older);

        PointResult back = ResultsCsv.read(file).get(0);
        assertEquals(8.6, back.cpu().get("replica3"), 1e-9);
        assertEquals(null, back.cpu().get("relay0"), "no figure for a node the file has no column for");
    }

    @Test
    void quotedCellsMayHoldCommasAndDoubledQuotes() {
        assertEquals(List.of("a", "b, \"c\"", "", "d"), ResultsCsv.split("a,\"b, \"\"c\"\"\",,d"));
    }
}
