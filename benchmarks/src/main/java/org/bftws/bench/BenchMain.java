package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.bftws.server.Cli;

/**
 * {@code ./bftws bench [--quick] [options]}: the echo benchmark suite (paper section 4.1) on this machine's
 * testbed. Runs the {@link BenchPlan}, writes {@code results.csv}, the PNG plots and the results page, prints the
 * comparisons and ends with {@code latency ratio L, projected throughput ratio P, box throughput T req/s}
 * (Configuration I, mac, 8 clients, 10 elements, against no replication with the same security). Exit status 0 when
 * every measured point succeeded and the headline was measured, 1 otherwise, 2 for a bad command line: BFT-SMaRt's
 * rows are a reference, so a peer that was skipped (with its reason on the page) does not change it.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        Cli.exit(new BenchCommand(), args);
    }

    static int run(BenchOptions options, PrintStream out) {
        List<PointResult> results;
        List<PeerResult> peer;
        RunInfo info;
        boolean clean;
        try {
            if (options.reportOnly()) {
                results = ResultsCsv.read(options.out().resolve(ResultsCsv.FILE));
                peer = PeerCsv.read(options.out().resolve(PeerCsv.FILE));
                info = RunInfo.read(options.out());
                out.println("bench: read " + results.size() + " points from " + options.out().resolve(ResultsCsv.FILE)
                        + " and " + peer.size() + " BFT-SMaRt rows from " + options.out().resolve(PeerCsv.FILE));
            } else {
                BenchPlan plan = BenchPlan.of(options);
                info = RunInfo.begin(options, plan);
                RunInfo earlier = options.only().isEmpty() ? null : RunInfo.read(options.out());
                out.printf(Locale.ROOT, "bench: %s suite, %d points (%d samples each after %d warm-up), results to %s%n",
                        options.quick() ? "quick" : "full", plan.points(), options.samples(), options.warmup(),
                        options.out());
                long t0 = System.nanoTime();
                Path runRoot = options.home().resolve("bench").resolve(LocalDateTime.now().format(
                        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-"
                        + ProcessHandle.current().pid()).toAbsolutePath().normalize();
                Files.createDirectories(options.out());
                BenchRunner runner = new BenchRunner(options, plan, runRoot, out);
                runner.run();
                // the page, the ratios and the last line come from the CSV as written (its rounded figures), so that
                // --report-only prints the same headline: computed from the unrounded run, a ratio's last digit
                // could differ from the page's
                results = ResultsCsv.read(options.out().resolve(ResultsCsv.FILE));
                peer = PeerCsv.read(options.out().resolve(PeerCsv.FILE));
                info.end(Duration.ofNanos(System.nanoTime() - t0));
                if (earlier != null && earlier.has("started")) {
                    // a partial re-run: the page keeps describing the suite's run, and says what was measured again
                    earlier.add("measured again", String.join(", ", options.only()) + " on " + info.get("started")
                            + " (" + info.get("duration") + ", setup warm-up " + info.get("setup warm-up") + ", load "
                            + info.get("load at start") + " to " + info.get("load at end") + ")");
                    info = earlier;
                }
                if (plan.peer().isPresent()) {
                    BenchPlan.PeerRuns runs = plan.peer().get();
                    info.put("peer", PeerRun.of(options, out).describe(PeerRun.requestBytes()));
                    info.put("peer clients", String.join(", then ", runs.clients().stream().map(String::valueOf)
                            .toList()));
                    info.put("peer position", runs.after() >= 0 ? "right after C-I `mac`'s last point (the"
                            + " headline), once its nodes had stopped, and before the next setup started"
                            : "before the plan's first setup (the plan had no C-I `mac`)");
                }
                info.write(options.out());
                if (runner.keptRunDirs().isEmpty()) {
                    BenchRunner.deleteQuietly(runRoot);
                }
            }
            clean = results.stream().allMatch(r -> r.ok() || PointResult.NOT_MEASURED.equals(r.status()));
            List<Path> plots = BenchPlots.write(options.out(), results);
            Targets targets = new Targets(results, peer);
            BenchPage.write(options.page(), results, peer, info, options.out().resolve(ResultsCsv.FILE), plots,
                    targets);
            printSummary(out, results, peer, targets, options, plots);
            out.println(targets.finalLine());
            return clean && targets.headlineMeasured() ? 0 : 1;
        } catch (IOException | RuntimeException e) {
            out.println("bench: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("bench: interrupted");
        }
        out.println(new Targets(List.of(), List.of()).finalLine());
        return 1;
    }

    private static String orNa(String figure) {
        return figure.isEmpty() ? "n/a" : figure;
    }

    private static void printSummary(PrintStream out, List<PointResult> results, List<PeerResult> peer,
                                      Targets targets, BenchOptions options, List<Path> plots) {
        out.println();
        out.println("replicated against no replication with the same security (latency ratio, throughput ratio"
                + " on this machine, projected throughput ratio with one host per node):");
        for (Comparison c : Comparison.all(results)) {
            PointResult r = c.replicated();
            out.printf(Locale.ROOT, "  %-10s %4d elements %2d clients: latency %s (%s / %s ms), box %s (%s / %s),"
                            + " projected %s (%s / %s)%s%n", r.setup().label(), r.point().size(), r.point().clients(),
                    orNa(ResultsCsv.number(c.latencyRatio(), 2)), ResultsCsv.number(r.latency().meanMs(), 1),
                    ResultsCsv.number(c.baseline().latency().meanMs(), 1), Targets.pct(c.boxRatio()),
                    Targets.rps(r.clientRps()), Targets.rps(c.baseline().clientRps()),
                    Targets.pct(c.projectedRatio()), Targets.rps(r.projectedRps()),
                    Targets.rps(c.baseline().projectedRps()),
                    PointResult.FAILED.equals(r.status()) ? " [point failed: no ratio]" : "");
        }
        long failed = results.stream().filter(r -> PointResult.FAILED.equals(r.status())).count();
        if (failed > 0) {
            out.println("failed points: " + failed + " (listed in the CSV and on the page with their reasons)");
        }
        out.println("BFT-SMaRt on this machine against C-I mac, 10 elements (throughput, mean latency, CPU per"
                + " request of a replica):");
        for (PeerComparison c : PeerComparison.all(results, peer)) {
            out.println("  " + c.summary());
        }
        if (peer.isEmpty()) {
            out.println("  not measured: " + PeerComparison.NO_ROWS);
        }
        out.println("targets:");
        for (Targets.Row row : targets.rows()) {
            out.println("  " + row.target().replace("`", "") + ": " + row.figure() + " (goal " + row.goal() + ")"
                    + (row.met() == null ? "" : row.met() ? ": met" : ": NOT met"));
        }
        out.println("wrote " + options.out().resolve(ResultsCsv.FILE) + ", " + plots.size() + " plots and "
                + options.page());
    }
}
