package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Runs a {@link BenchPlan}: for each setup, start its nodes, warm up, measure its points in order, stop its nodes;
 * after every point the results so far are written to {@code out/results.partial.csv} (renamed to results.csv when
 * the suite ends), so a stopped run keeps what it measured. A setup that does not start, or whose node dies, gets
 * its remaining points recorded as failed with the reason; the suite goes on with the next setup. The peer
 * (BFT-SMaRt, {@link PeerRun}) runs where the plan says, on the machine the setups have just left idle; its rows go
 * to {@code out/peer.csv} when the suite ends.
 */
final class BenchRunner {

    private final BenchOptions options;
    private final BenchPlan plan;
    private final PrintStream out;
    private final Path runRoot;
    /** The nodes of the setup now running: the shutdown hook stops them on Ctrl-C. */
    private final CopyOnWriteArrayList<ReplicaProcess> current = new CopyOnWriteArrayList<>();
    private final List<PointResult> results = new ArrayList<>();
    private final List<Path> keptRunDirs = new ArrayList<>();
    private final PeerRun peer;
    private final List<PeerResult> peerResults = new ArrayList<>();

    BenchRunner(BenchOptions options, BenchPlan plan, Path runRoot, PrintStream out) {
        this.options = options;
        this.plan = plan;
        this.runRoot = runRoot;
        this.out = out;
        this.peer = PeerRun.of(options, out);
    }

    List<PointResult> run() throws IOException, InterruptedException {
        Thread hook = new Thread(this::interrupted, "bench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            TestbedKeys keys = new TestbedKeys(options.home().resolve("testbed").resolve("keys"));
            if (!plan.stages().isEmpty()) {
                out.println(keys.ensure());
            }
            Progress progress = new Progress(out, plan.points());
            int setups = plan.stages().size();
            int peerAfter = plan.peer().map(BenchPlan.PeerRuns::after).orElse(Integer.MIN_VALUE);
            if (peerAfter == -1) {
                runPeer(progress);
            }
            int index = 0;
            for (BenchPlan.Stage stage : plan.stages()) {
                runStage(stage, ++index, setups, keys, progress);
                if (index - 1 == peerAfter) {
                    runPeer(progress);
                }
            }
            PeerCsv.update(options.out().resolve(PeerCsv.FILE), plan, peerResults);
            Path partial = partialCsv();
            if (!Files.exists(partial)) {
                ResultsCsv.write(partial, results); // a plan of the peer alone (--only bftsmart) measures no point
            }
            Path csv = options.out().resolve(ResultsCsv.FILE);
            if (!options.only().isEmpty() && Files.isRegularFile(csv)) {
                List<PointResult> merged = merge(ResultsCsv.read(csv), results);
                ResultsCsv.write(csv, merged);
                Files.delete(partial);
                return merged;
            }
            Files.move(partial, csv, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs and finds the nodes stopped
            }
        }
        return List.copyOf(results);
    }

    /**
     * The earlier results with the setups measured again replaced by their new rows (where the setup's first row
     * was); setups new to the file go at the end.
     */
    static List<PointResult> merge(List<PointResult> earlier, List<PointResult> again) {
        java.util.Set<BenchSetup> redone = new java.util.LinkedHashSet<>();
        again.forEach(r -> redone.add(r.setup()));
        List<PointResult> merged = new ArrayList<>();
        java.util.Set<BenchSetup> placed = new java.util.HashSet<>();
        for (PointResult r : earlier) {
            if (!redone.contains(r.setup())) {
                merged.add(r);
            } else if (placed.add(r.setup())) {
                again.stream().filter(a -> a.setup().equals(r.setup())).forEach(merged::add);
            }
        }
        for (BenchSetup s : redone) {
            if (!placed.contains(s)) {
                again.stream().filter(a -> a.setup().equals(s)).forEach(merged::add);
            }
        }
        return merged;
    }

    private void runStage(BenchPlan.Stage stage, int index, int stages, TestbedKeys keys, Progress progress)
            throws IOException, InterruptedException {
        BenchSetup setup = stage.setup();
        progress.setup(setup, index, stages);
        Path runDir = runRoot.resolve(setup.id());
        Files.createDirectories(runDir);
        boolean clean = true;
        SetupRun run = null;
        List<BenchPoint> points = stage.points();
        int next = 0;
        int silent = 0;
        try {
            run = SetupRun.start(setup, runDir, keys, options.home(), current, out);
            BenchPoint first = points.get(0);
            run.warmUp(options.setupWarmup(), warmupClients(stage), first.size(), options.setupWarmupCap());
            for (; next < points.size(); next++) {
                String dead = run.deadNodes();
                if (!dead.isEmpty()) {
                    break;
                }
                progress.pointStarts(points.get(next));
                PointResult r = run.measure(points.get(next), options, progress);
                clean &= r.ok();
                progress.pointEnded(r);
                record(r);
                silent = r.samples() == 0 ? silent + 1 : 0;
                if (silent == 2) {
                    // two points in a row without a single answer: the nodes are up but not serving (a dead thread,
                    // a group that stopped ordering); the next points would only wait for their timeouts
                    next++;
                    skipRest(setup, points, next, "not run: the setup answered no request of the two points before",
                            progress);
                    next = points.size();
                    break;
                }
            }
            if (next < points.size()) {
                clean = false;
                skipRest(setup, points, next, "not run: a node of the setup ended (" + run.deadNodes() + ")",
                        progress);
            }
        } catch (IOException | RuntimeException e) {
            clean = false;
            out.println("  setup failed: " + e.getMessage());
            skipRest(setup, points, next, "setup failed: " + e.getMessage(), progress);
        } finally {
            if (run != null) {
                run.close();
            } else {
                Testbed.stopAll(current, out);
            }
            current.clear();
        }
        if (clean && !options.keep()) {
            deleteQuietly(runDir);
        } else {
            keptRunDirs.add(runDir);
            out.println("  kept the run directory " + runDir);
        }
    }

    /** BFT-SMaRt at each of the plan's peer client counts, with the request size of the headline's requests. */
    private void runPeer(Progress progress) throws InterruptedException {
        int bytes = PeerRun.requestBytes();
        out.printf(Locale.ROOT, "%s BFT-SMaRt (the peer): %s%n", progress.clock(), peer.describe(bytes));
        for (int clients : plan.peer().orElseThrow().clients()) {
            out.printf(Locale.ROOT, "%s   BFT-SMaRt, %d client%s%n", progress.clock(), clients,
                    clients == 1 ? "" : "s");
            peerResults.add(peer.run(clients, bytes, progress));
        }
    }

    /** The setup warm-up runs at the stage's largest client count, so the concurrent paths get compiled too. */
    private static int warmupClients(BenchPlan.Stage stage) {
        return stage.points().stream().mapToInt(BenchPoint::clients).max().orElse(1);
    }

    private void skipRest(BenchSetup setup, List<BenchPoint> points, int from, String why, Progress progress)
            throws IOException {
        for (int k = from; k < points.size(); k++) {
            record(PointResult.notRun(setup, points.get(k), options.samples(), why));
        }
        progress.skipped(points.size() - from);
    }

    private void record(PointResult r) throws IOException {
        results.add(r);
        ResultsCsv.write(partialCsv(), results);
    }

    private Path partialCsv() {
        return options.out().resolve("results.partial.csv");
    }

    List<Path> keptRunDirs() {
        return List.copyOf(keptRunDirs);
    }

    /** Ctrl-C or SIGTERM: stop the nodes of the running setup, or the peer's run, before the JVM exits. */
    private void interrupted() {
        out.println("bench: interrupted; stopping the nodes; results so far are in " + partialCsv());
        Testbed.stopAll(current, out);
        peer.stop();
    }

    static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover run directory is harmless; .bftws is git-ignored
        }
    }
}
