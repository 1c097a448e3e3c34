package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerCsvTest {

    private static final Path HOME = Path.of("/checkout/.bftws");

    @TempDir
    Path dir;

    static PeerResult measured(int clients, double ops, double meanMs, double cpuMs) {
        return PeerResult.measured(new PeerLine(clients, 287, ops, meanMs, cpuMs), "2026-11-24 20:31 UTC", 1.5, "");
    }

    @Test
    void peerRowsWrittenAndReadBackKeepEveryFigureAndReason() throws IOException {
        Path file = dir.resolve(PeerCsv.FILE);
        PeerResult eight = measured(8, 1627, 4.92, 0.26);
        PeerResult one = PeerResult.skipped(1, 287, "twice; first: run.py: FileNotFoundError: 'x, \"y\"'");
        PeerCsv.write(file, List.of(eight, one));
        List<PeerResult> back = PeerCsv.read(file);
        assertEquals(eight, back.get(0));
        assertEquals(PeerResult.SKIPPED, back.get(1).status());
        assertEquals(one.note(), back.get(1).note(), "commas and quotes in a reason survive");
        assertTrue(Double.isNaN(back.get(1).opsPerSecond()));
    }

    @Test
    void aRunFromBeforeThePeerHasNoRowsAndAForeignFileIsRefused() throws IOException {
        assertEquals(List.of(), PeerCsv.read(dir.resolve("none.csv")));
        Path other = dir.resolve("other.csv");
        Files.writeString(other, "setup,label\nc1-mac,C-I mac\n");
        assertThrows(IOException.class, () -> PeerCsv.read(other));
    }

    @Test
    void anOnlyRunWithoutThePeerKeepsTheEarlierPeerRowsAndOneNamingItReplacesThem() throws IOException {
        Path file = dir.resolve(PeerCsv.FILE);
        List<PeerResult> earlier = List.of(measured(8, 1627, 4.92, 0.26), measured(1, 292, 3.42, 1.44));
        PeerCsv.write(file, earlier);

        BenchPlan withoutPeer = BenchPlan.of(BenchOptions.parse(new String[] {"--only", "c1-mac", "--home",
                HOME.toString()}));
        PeerCsv.update(file, withoutPeer, List.of());
        assertEquals(earlier, PeerCsv.read(file), "--only c1-mac leaves the peer's rows to the run they came from");

        List<PeerResult> again = List.of(measured(8, 1500, 5.3, 0.3), PeerResult.skipped(1, 287, "not run: --no-peer"));
        BenchPlan withPeer = BenchPlan.of(BenchOptions.parse(new String[] {"--only", "c1-mac,bftsmart", "--home",
                HOME.toString()}));
        PeerCsv.update(file, withPeer, again);
        assertEquals(again, PeerCsv.read(file));

        BenchPlan full = BenchPlan.of(BenchOptions.parse(new String[] {"--no-peer", "--home", HOME.toString()}));
        List<PeerResult> skipped = List.of(PeerResult.skipped(8, 287, "not run: --no-peer"),
                PeerResult.skipped(1, 287, "not run: --no-peer"));
        PeerCsv.update(file, full, skipped);
        assertEquals(skipped, PeerCsv.read(file), "a whole run replaces them, if only with the reason it did not run");
    }
}
