package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchPageTest {

    @TempDir
    Path dir;

    private static List<PointResult> results() {
        List<PointResult> r = new ArrayList<>();
        for (int size : List.of(1, 10, 100, 1000)) {
            for (int clients : List.of(1, 8)) {
                r.add(SampleResults.ok(BenchSetup.unreplicated(SecurityProfile.NONE), size, clients, 1 + size / 100.0,
                        900, 1.0));
                r.add(SampleResults.ok(BenchSetup.unreplicated(SecurityProfile.MAC), size, clients, 5 + size / 50.0,
                        300, 3.0));
                r.add(SampleResults.ok(BenchSetup.bft(Configuration.I, SecurityProfile.MAC), size, clients,
                        9 + size / 20.0, 150, 4.0));
                r.add(SampleResults.failed(BenchSetup.bft(Configuration.III, SecurityProfile.MAC), size, clients,
                        "setup failed: exec1 ended before it was ready | see its log"));
            }
        }
        r.add(SampleResults.ok(BenchSetup.threeTier(SecurityProfile.MAC), 100, 1, 31.5, 30, 6.0));
        return r;
    }

    private static RunInfo info() throws IOException {
        return RunInfo.read(Path.of("no-such-directory"));
    }

    @Test
    void theHandWrittenAnalysisSurvivesARewriteOfThePage() throws IOException {
        Path page = dir.resolve("benchmarks.md");
        List<PointResult> results = results();
        BenchPage.write(page, results, List.of(), info(), dir.resolve("results.csv"), List.of(),
                new Targets(results, List.of()));
        String first = Files.readString(page);
        assertTrue(first.contains("(not written yet)"), first);
        String analysis = "JFR: 40 % of replica CPU is in WSS4J signing.\n\n| where | share |\n| --- | --- |\n";
        Files.writeString(page, first.replace("(not written yet)\n", analysis));
        BenchPage.write(page, results, List.of(), info(), dir.resolve("results.csv"), List.of(),
                new Targets(results, List.of()));
        String second = Files.readString(page);
        assertEquals(analysis, BenchPage.analysis(second));
        assertTrue(!second.contains("(not written yet)"));
    }

    @Test
    void thePageShowsTheHeadlineFailuresAndTheUnmeasuredThreeTierEcho() throws IOException {
        Path page = dir.resolve("docs").resolve("benchmarks.md");
        List<PointResult> results = results();
        Path plot = dir.resolve("docs").resolve("bench").resolve("latency-mac.png");
        BenchPage.write(page, results, List.of(), info(), dir.resolve("docs/bench/results.csv"), List.of(plot),
                new Targets(results, List.of()));
        String s = Files.readString(page);
        assertTrue(s.contains(new Targets(results, List.of()).finalLine()), s);
        assertTrue(s.contains("![latency-mac](bench/latency-mac.png)"), "plots are linked relative to the page");
        assertTrue(s.contains("**3-tier echo, C-I mac** (`3tier-mac`)"), "the 3-tier row is a measured setup:\n" + s);
        assertTrue(s.contains("**failed**: setup failed: exec1 ended before it was ready \\| see its log"),
                "a failed point is shown with its reason, table pipes escaped:\n" + s);
        assertTrue(s.contains("| 10 | 8 | 1.83 / 50 % / 75 % | failed | - |"), "C-I mac against unreplicated mac:\n" + s);
    }

    @Test
    void theThreeTierEchoIsSetAgainstTheClientServerEchoAtTheSamePoint() {
        String s = ResultTables.ratios(results());
        // 3-tier: 31.5 ms, 30 req/s, 6.0 s of CPU; C-I mac at 100 elements, 1 client: 14 ms, 150 req/s, 4.0 s
        assertTrue(s.contains("| 3-tier / C-I |"), s);
        assertTrue(s.contains(" | 2.25 / 20 % / "), "the 3-tier cell of 100 elements, 1 client:\n" + s);
    }

    @Test
    void thePageSetsBftSmartBesideConfigurationIMacWithTheRatiosTheTargetsUse() throws IOException {
        Path page = dir.resolve("benchmarks.md");
        List<PointResult> results = results(); // C-I mac at 10 elements: 1 client 9.5 ms 150 req/s, 8 the same
        List<PeerResult> peer = List.of(PeerCsvTest.measured(8, 1600, 4.75, 1.6), PeerCsvTest.measured(1, 300, 3.8,
                2.0));
        RunInfo info = info();
        info.put("peer", "/shared/peers/bftsmart/run.py --clients C --ops 10000 --warm-ops 10000 --size 287");
        BenchPage.write(page, results, peer, info, dir.resolve("results.csv"), List.of(), new Targets(results, peer));
        String s = Files.readString(page);
        assertTrue(s.contains("## BFT-SMaRt on this machine"), s);
        assertTrue(s.contains("Its requests carry 287 bytes"), s);
        assertTrue(s.contains("--ops 10000 --warm-ops 10000 --size 287"), "how it ran:\n" + s);
        // rows by client count: BFT-SMaRt, ours, ours / BFT-SMaRt (150 / 1600 = 9 %, 9.5 / 4.75 = 2, 4 / 1.6 = 2.5)
        assertTrue(s.contains("| 1 | BFT-SMaRt, 287-byte requests | 300 | 3.80 ms | 2.000 ms (mean of 4) | 1.5 |"
                + " ok, 2026-11-24 20:31 UTC |"), s);
        assertTrue(s.contains("| 8 | BFT-WS C-I `mac`, 10 elements | 150 | 9.50 ms | 4.000 ms (busiest of 4) | 2.5 |"
                + " ok |"), s);
        assertTrue(s.contains("| 8 | *BFT-WS / BFT-SMaRt* | *9 %* | *2.00* | *2.50* | | |"), s);
        assertTrue(s.contains("| `mac` throughput on this machine, C-I / BFT-SMaRt, 8 clients | at least 50 % |"
                + " 9 % (150 req/s / 1,600 req/s) | **no** |"), s);
        assertTrue(s.contains("| `mac` CPU per request of each replica, C-I / BFT-SMaRt, 8 clients | at most 3.00 |"
                + " 2.50 (busiest replica 4.000 ms / 1.600 ms per BFT-SMaRt replica) | yes |"), s);
        assertTrue(s.contains("| `mac` mean latency, C-I / BFT-SMaRt, 1 client | at most 3.00 | 2.50 (9.50 ms /"
                + " 3.80 ms) | yes |"), s);
        assertTrue(s.indexOf("## BFT-SMaRt on this machine") < s.indexOf("## Where the time goes"), s);
    }

    @Test
    void aSkippedPeerIsShownWithItsReasonAndARunWithoutPeerRowsSaysSo() throws IOException {
        Path page = dir.resolve("benchmarks.md");
        List<PointResult> results = results();
        List<PeerResult> skipped = List.of(PeerResult.skipped(8, 287, "twice; first: run.py: a | b"),
                PeerResult.skipped(1, 287, "not run: --no-peer"));
        BenchPage.write(page, results, skipped, info(), dir.resolve("results.csv"), List.of(),
                new Targets(results, skipped));
        String s = Files.readString(page);
        assertTrue(s.contains("**Not measured in this run**"), s);
        assertTrue(s.contains("| 8 | BFT-SMaRt, 287-byte requests | - | - | - | "), s);
        assertTrue(s.contains("**skipped**: twice; first: run.py: a \\| b |"), "pipes escaped:\n" + s);
        assertTrue(s.contains("| 1 | *BFT-WS / BFT-SMaRt* | - | - | - | | |"), s);
        assertTrue(s.contains("not measured: BFT-SMaRt skipped: not run: --no-peer | - |"), s);

        BenchPage.write(page, results, List.of(), info(), dir.resolve("results.csv"), List.of(),
                new Targets(results, List.of()));
        s = Files.readString(page);
        assertTrue(s.contains("Not measured: no BFT-SMaRt rows (no peer.csv beside results.csv)"), s);
        assertTrue(!s.contains("| clients | system |"), "no empty table:\n" + s);
    }

    @Test
    void aPeerThatCannotRunIsASkippedRowOnTheConsoleAndThePageAndTheOtherRowsStay() throws IOException {
        Path out = dir.resolve("out");
        List<PointResult> results = results().stream().filter(PointResult::ok).toList();
        ResultsCsv.write(out.resolve(ResultsCsv.FILE), results);
        String csv = Files.readString(out.resolve(ResultsCsv.FILE));
        Path missing = dir.resolve("no-peer-here").resolve("run.py");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int status = BenchMain.run(BenchOptions.parse(new String[] {"--only", "bftsmart", "--peer", missing.toString(),
                "--out", out.toString(), "--page", out.resolve("benchmarks.md").toString(), "--home",
                dir.resolve(".bftws").toString()}),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
        String console = printed.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, "the peer is a reference: skipping it fails nothing\n" + console);
        assertTrue(console.contains("BFT-SMaRt skipped: no BFT-SMaRt runner at " + missing), console);
        assertTrue(console.contains("8 clients: BFT-SMaRt skipped: no BFT-SMaRt runner at"), console);
        assertEquals(csv, Files.readString(out.resolve(ResultsCsv.FILE)), "no setup ran: every point stays");
        List<PeerResult> peer = PeerCsv.read(out.resolve(PeerCsv.FILE));
        assertEquals(List.of(8, 1), peer.stream().map(PeerResult::clients).toList());
        assertTrue(peer.stream().noneMatch(PeerResult::ok));
        String page = Files.readString(out.resolve("benchmarks.md"));
        assertTrue(page.contains("**skipped**: no BFT-SMaRt runner at " + missing), page);
        assertTrue(Files.notExists(dir.resolve(".bftws").resolve("testbed")), "no setup: no keys made");
    }

    @Test
    void plotsArePngImagesOnePerFigureAndProfile() throws IOException {
        List<Path> files = BenchPlots.write(dir, results());
        assertEquals(List.of("latency-mac.png", "throughput-mac.png", "projected-mac.png"),
                files.stream().map(f -> f.getFileName().toString()).toList());
        BufferedImage latency = ImageIO.read(files.get(0).toFile());
        assertEquals(640, latency.getWidth());
        BufferedImage grid = ImageIO.read(files.get(1).toFile());
        assertEquals(2 * 640, grid.getWidth(), "four sizes in two columns");
        assertEquals(2 * 420, grid.getHeight());
    }
}
