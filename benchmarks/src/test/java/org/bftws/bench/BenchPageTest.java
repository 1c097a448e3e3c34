package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
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
        BenchPage.write(page, results, info(), dir.resolve("results.csv"), List.of(), new Targets(results));
        String first = Files.readString(page);
        assertTrue(first.contains("(not written yet)"), first);
        String analysis = "JFR: 40 % of replica CPU is in WSS4J signing.\n\n| where | share |\n| --- | --- |\n";
        Files.writeString(page, first.replace("(not written yet)\n", analysis));
        BenchPage.write(page, results, info(), dir.resolve("results.csv"), List.of(), new Targets(results));
        String second = Files.readString(page);
        assertEquals(analysis, BenchPage.analysis(second));
        assertTrue(!second.contains("(not written yet)"));
    }

    @Test
    void thePageShowsTheHeadlineFailuresAndTheUnmeasuredThreeTierEcho() throws IOException {
        Path page = dir.resolve("docs").resolve("benchmarks.md");
        List<PointResult> results = results();
        Path plot = dir.resolve("docs").resolve("bench").resolve("latency-mac.png");
        BenchPage.write(page, results, info(), dir.resolve("docs/bench/results.csv"), List.of(plot),
                new Targets(results));
        String s = Files.readString(page);
        assertTrue(s.contains(new Targets(results).finalLine()), s);
        assertTrue(s.contains("![latency-mac](bench/latency-mac.png)"), "plots are linked relative to the page");
        assertTrue(s.contains("**3-tier echo, C-I mac** (`3tier-mac`)"), "the 3-tier row is a measured setup:\n" + s);
        assertTrue(s.contains("**failed**: setup failed: exec1 ended before it was ready \\| see its log"),
                "a failed point is shown with its reason, table pipes escaped:\n" + s);
        assertTrue(s.contains("| 10 | 8 | 1.83 / 50 % / 75 % | failed |"), "C-I mac against unreplicated mac:\n" + s);
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
