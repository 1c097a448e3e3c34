package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite as the launcher runs it ({@code ./bftws bench} is this main class on this classpath) on a small grid:
 * real node JVMs for the unsigned and signed baselines and Configuration I, the clients in the suite's JVM.
 */
class BenchEndToEndTest {

    private static final Pattern FINAL_LINE = Pattern.compile(
            "latency ratio ([0-9.]+), projected throughput ratio ([0-9.]+), box throughput ([0-9.]+) req/s");

    @TempDir
    Path home;

    @Test
    void aSmallSuiteMeasuresEveryPointAndWritesCsvPlotsAndThePageEndingWithTheRatiosLine() throws Exception {
        Path out = home.resolve("out");
        Path page = out.resolve("benchmarks.md");
        try (Jvm bench = Jvm.start(BenchMain.class, List.of("--sizes", "10", "--clients", "1,8", "--profiles", "mac",
                "--configs", "I", "--samples", "24", "--warmup", "8", "--setup-warmup", "16", "--out", out.toString(),
                "--page", page.toString(), "--home", SharedHome.withKeys().toString(), "--no-peer"))) {
            int status = bench.awaitExit(Duration.ofSeconds(420));
            List<String> lines = bench.lines();
            String last = lines.get(lines.size() - 1);
            Matcher m = FINAL_LINE.matcher(last);
            assertTrue(m.matches(), "last line: " + last + "\n" + bench.output());
            assertTrue(Double.parseDouble(m.group(1)) > 0 && Double.parseDouble(m.group(2)) > 0
                    && Double.parseDouble(m.group(3)) > 0, last);
            assertEquals(0, status, bench.output());
            // progress while it ran: every point announced and its figures printed
            assertEquals(8, lines.stream().filter(l -> l.contains(" point ") && l.contains(" of 8: ")).count(),
                    bench.output());

            List<PointResult> results = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
            assertEquals(8, results.size(), "3 setups and the 3-tier echo (100 elements) x 2 points");
            assertEquals(2, results.stream().filter(r -> r.setup().kind() == BenchSetup.Kind.THREE_TIER).count());
            for (PointResult r : results) {
                assertEquals(PointResult.OK, r.status(), r.toString());
                assertEquals(24, r.samples() + r.failed(), r.toString());
                assertTrue(r.cpu().get(CpuSamples.CLIENT) > 0 && r.busiestNodeCpu() > 0, r.toString());
                assertTrue(r.serviceRps() > 0, "the service's counters were read: " + r);
                assertEquals(r.setup().nodes() + 1, r.cpu().size(), "every node and the client: " + r);
            }
            assertTrue(Files.readString(page).contains(last), "the page shows the same headline");
            // no test starts BFT-SMaRt (measuring it is the suite's job): the page says it was not run, and why
            assertTrue(Files.readString(page).contains("**skipped**: not run: --no-peer"), Files.readString(page));
            for (String png : List.of("latency-mac.png", "throughput-mac.png", "projected-mac.png")) {
                assertTrue(Files.size(out.resolve(png)) > 1000, png);
            }
            try (Stream<Path> runs = Files.list(SharedHome.withKeys().resolve("bench"))) {
                assertEquals(0, runs.count(), "a clean run leaves no run directory behind");
            }
            assertTrue(Files.notExists(out.resolve("results.partial.csv")));

            // --report-only redraws the page from the CSV alone, with the same headline
            Files.delete(page);
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            int again = BenchMain.run(BenchOptions.parse(new String[] {"--report-only", "--out", out.toString(),
                    "--page", page.toString(), "--home", SharedHome.withKeys().toString()}),
                    new PrintStream(printed, true, StandardCharsets.UTF_8));
            String report = printed.toString(StandardCharsets.UTF_8).trim();
            assertEquals(0, again, report);
            assertTrue(report.endsWith(last), report);
            assertTrue(Files.readString(page).contains(last));
        }
    }
}
