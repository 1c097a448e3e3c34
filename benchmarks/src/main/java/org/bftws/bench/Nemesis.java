package org.bftws.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.bftws.bench.nemesis.Fault;
import org.bftws.bench.nemesis.History;
import org.bftws.bench.nemesis.KvChecker;
import org.bftws.bench.nemesis.Network;
import org.bftws.bench.nemesis.Schedule;
import org.bftws.config.ProtocolConfig;
import org.bftws.config.SecurityProfile;

/**
 * {@code ./bftws nemesis}: the key-value sample's group of four replica JVMs and a client JVM, each on a network
 * stack of its own ({@link Network}: a namespace and an address on a bridge), under the faults of a {@link Schedule}
 * drawn from a seed (partitions, pauses, kills and restarts, clock skew), while the clients record a history that
 * Porcupine judges ({@link KvChecker}); then the replicas' states are compared and the history is checked for lost
 * acknowledged writes and failed calls whose effect shows. The last line:
 * {@code nemesis: N ops, K ok, F failed, U unknown, linearizable: yes|no, states equal, faults: P partitions,
 * S pauses, R restarts, C clock skews, longest unavailability T s}.
 */
final class Nemesis {

    /**
     * @param runMillis     how long the clients call (the faults fall within it)
     * @param seed          the schedule's seed (and the clients')
     * @param clients       client threads
     * @param keys          keys they work on
     * @param timeoutMillis a call without a decided reply after this has an unknown outcome
     * @param keep          keep the run directory also when the run passed
     * @param home          the state directory
     */
    record Options(long runMillis, long seed, int clients, int keys, long timeoutMillis, boolean keep, Path home) {
    }

    /** Exit status: every check passed. */
    static final int PASSED = 0;
    /** Exit status: a check failed (or the run could not finish). */
    static final int VIOLATION = 1;
    /** Exit status: it cannot run here (no namespaces, no Go). */
    static final int REFUSED = 2;

    private static final Duration CLIENT_READY = Duration.ofSeconds(120);
    private static final Duration SETTLE = Duration.ofSeconds(120);
    private static final int CLIENT_HOST = Schedule.REPLICAS;

    private final Options options;
    private final PrintStream out;
    private final long t0 = System.nanoTime();
    private final ProtocolConfig protocol = ProtocolConfig.defaults();
    private final Map<Fault.Count, Integer> counts = new EnumMap<>(Fault.Count.class);
    /** Each fault applied: when it began and was healed (nanoTime). */
    private final List<Applied> applied = new ArrayList<>();

    private record Applied(Fault fault, long began, long healed) {
    }
    private int unexpectedExits;
    /** Set when the JVM is shutting down (Ctrl-C, SIGTERM): the run restarts nothing more. */
    private volatile boolean stopping;

    Nemesis(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
        for (Fault.Count c : Fault.Count.values()) {
            counts.put(c, 0);
        }
    }

    /** Why it cannot run here, in one line, or null. */
    static String refusal() {
        return Network.refusal().or(KvChecker::refusal).orElse(null);
    }

    int run() {
        String refusal = refusal();
        if (refusal != null) {
            out.println("nemesis: cannot run here: " + refusal);
            return REFUSED;
        }
        Path runDir = options.home().resolve("nemesis").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))).toAbsolutePath();
        Schedule schedule = Schedule.draw(options.seed(), options.runMillis(), protocol.clockSkewBound().toMillis());
        out.println("nemesis: " + seconds(options.runMillis() * 1_000_000L) + " s, seed " + options.seed() + ", "
                + options.clients() + " clients on " + options.keys() + " keys, " + schedule.faults().size()
                + " faults, clockSkewBound " + protocol.clockSkewBound().toMillis() + " ms, viewChangeTimeout "
                + protocol.viewChangeTimeout().toMillis() + " ms; run directory " + runDir);
        Resources r = new Resources();
        Thread hook = new Thread(() -> {
            stopping = true; // the main thread starts nothing more
            r.release(true);
        }, "nemesis-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean passed = false;
        try {
            Files.createDirectories(runDir);
            KvChecker checker = KvChecker.build(KvChecker.sourceDirectory(options.home()),
                    options.home().resolve("nemesis"));
            r.network = Network.create(Schedule.REPLICAS + 1);
            out.println("nemesis: bridge " + r.network.bridge() + ", replicas on " + addresses(r.network)
                    + ", the client on " + r.network.address(CLIENT_HOST));
            List<List<String>> prefixes = new ArrayList<>();
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < Schedule.REPLICAS; i++) {
                prefixes.add(r.network.prefix(i));
                hosts.add(r.network.address(i));
            }
            r.group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                    options.home().resolve("testbed").resolve("keys"), SecurityProfile.MAC, null, true, List.of(),
                    Soak.HEAP, null, ReplicaGroup.ArchivedService.KV), new ReplicaGroup.Placement(hosts, prefixes));
            note("replicas ready");
            Path history = runDir.resolve("history.jsonl");
            r.client = startClient(r.network, r.group.replicasXml(), runDir, history);
            long start = System.nanoTime();
            note("clients started");
            long healed = start;
            for (Fault f : schedule.faults()) {
                // late when restarts were slow: then still a few seconds of quiet after the last heal
                sleepUntil(Math.max(start + TimeUnit.MILLISECONDS.toNanos(f.startMillis()),
                        healed + TimeUnit.MILLISECONDS.toNanos(Schedule.HEALED_BEFORE_NEXT_MILLIS)), r.group);
                apply(f, r, start);
                healed = System.nanoTime();
            }
            sleepUntil(start + TimeUnit.MILLISECONDS.toNanos(options.runMillis()), r.group);
            long stop = System.nanoTime();
            r.network.heal();
            note("stopping the clients; they read every key once more");
            r.client.stop(options.timeoutMillis() + 180_000);
            Map<String, EchoStateProbe.Reading> states = r.group.awaitSameState(0, Duration.ofSeconds(2), SETTLE);
            passed = judge(runDir, history, checker, states, start, stop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("nemesis: interrupted");
        } catch (IOException | RuntimeException e) {
            out.println("nemesis: failed: " + e);
        } finally {
            r.release(false);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs release, which did its work already
            }
            if (passed && !options.keep()) {
                Testbed.deleteQuietly(runDir);
            } else {
                out.println("nemesis: run directory kept (history, replica logs): " + runDir);
            }
        }
        return passed ? PASSED : VIOLATION;
    }

    private boolean judge(Path runDir, Path historyFile, KvChecker checker,
                          Map<String, EchoStateProbe.Reading> states, long start, long stop)
            throws IOException, InterruptedException {
        boolean equal = states.values().stream().distinct().count() == 1;
        if (!equal) {
            states.forEach((name, s) -> out.println("nemesis: " + name + " holds " + s.entries()));
        }
        Map<String, Long> finalState = new LinkedHashMap<>();
        for (String entry : states.values().iterator().next().entries()) {
            int eq = entry.indexOf('=');
            finalState.put(entry.substring(0, eq), Long.parseLong(entry.substring(eq + 1)));
        }
        History history = History.read(historyFile);
        KvChecker.Result verdict = checker.check(historyFile, runDir.resolve("history.html"));
        out.println("nemesis: kvcheck (Porcupine): " + verdict.line()
                + (verdict.verdict() == KvChecker.Verdict.NO ? "; visualization " + runDir.resolve("history.html")
                : ""));
        List<String> lost = history.lostWrites(finalState);
        lost.forEach(l -> out.println("nemesis: acknowledged write lost: " + l));
        List<String> seen = history.failedButSeen(finalState);
        seen.forEach(l -> out.println("nemesis: failed call took effect: " + l));
        if (unexpectedExits > 0) {
            out.println("nemesis: " + unexpectedExits + " replica(s) ended without being killed (see their logs)");
        }
        targets(history, start, stop);
        long unavailable = history.longestUnavailableNanos(start, stop);
        long ok = history.count(org.bftws.bench.nemesis.Operation.Outcome.OK);
        long failed = history.count(org.bftws.bench.nemesis.Operation.Outcome.FAILED);
        long unknown = history.count(org.bftws.bench.nemesis.Operation.Outcome.UNKNOWN);
        out.println("nemesis: done after " + seconds(System.nanoTime() - t0) + " s, load average "
                + MeasureMain.loadAverage());
        out.println(resultLine(history.operations().size(), ok, failed, unknown, verdict.verdict(), equal,
                counts, unavailable));
        return verdict.verdict() == KvChecker.Verdict.YES && equal && lost.isEmpty() && seen.isEmpty()
                && unexpectedExits == 0 && ok > 0;
    }

    /**
     * The recovery targets, reported (not a violation of safety): after each heal the group serves again within
     * 2 x viewChangeTimeout, and a partition that leaves at most f replicas without a quorum never stops it (no
     * stretch without an ok completion longer than that either, while it lasts).
     */
    private void targets(History history, long start, long stop) {
        long limit = 2 * protocol.viewChangeTimeout().toNanos();
        long slowest = 0;
        long longestStall = 0;
        List<String> missed = new ArrayList<>();
        for (Applied a : applied) {
            long after = history.servingAgainAfter(a.healed());
            if (after < 0 || after > limit) {
                missed.add(a.fault().describe() + ": serving again " + (after < 0 ? "never"
                        : seconds(after) + " s") + " after its heal");
            }
            slowest = Math.max(slowest, after < 0 ? stop - a.healed() : after);
            boolean minor = a.fault().kind().count() == Fault.Count.PARTITION && a.fault().kind() != Fault.Kind.HALVES;
            if (minor) {
                long stall = history.longestUnavailableNanos(a.began(), a.healed());
                longestStall = Math.max(longestStall, stall);
                if (stall > limit) {
                    missed.add(a.fault().describe() + ": stopped the group for " + seconds(stall) + " s");
                }
            }
        }
        out.println("nemesis: slowest return to service after a heal " + seconds(slowest) + " s, longest stall "
                + "during a partition of at most f replicas " + seconds(longestStall) + " s (targets "
                + seconds(limit) + " s, 2 x viewChangeTimeout)" + (missed.isEmpty() ? "" : "; missed " + missed.size()
                + " time(s):"));
        missed.forEach(m -> out.println("nemesis:   " + m));
    }

    /** The run's last line. */
    static String resultLine(long ops, long ok, long failed, long unknown, KvChecker.Verdict linearizable,
                             boolean statesEqual, Map<Fault.Count, Integer> faults, long unavailableNanos) {
        return "nemesis: " + ops + " ops, " + ok + " ok, " + failed + " failed, " + unknown + " unknown, "
                + "linearizable: " + switch (linearizable) {
                    case YES -> "yes";
                    case NO -> "no";
                    case UNKNOWN -> "unknown";
                } + ", " + (statesEqual ? "states equal" : "states differ") + ", faults: "
                + faults.getOrDefault(Fault.Count.PARTITION, 0) + " partitions, "
                + faults.getOrDefault(Fault.Count.PAUSE, 0) + " pauses, "
                + faults.getOrDefault(Fault.Count.RESTART, 0) + " restarts, "
                + faults.getOrDefault(Fault.Count.CLOCK_SKEW, 0) + " clock skews, longest unavailability "
                + seconds(unavailableNanos) + " s";
    }

    /** Applies {@code f}, waits its duration, heals it. */
    private void apply(Fault f, Resources r, long start) throws IOException, InterruptedException {
        ReplicaGroup group = r.group;
        Network net = r.network;
        String what = f.describe();
        switch (f.kind()) {
            case PRIMARY_ALONE -> {
                int p = group.primary();
                Set<Network.Cut> cuts = new HashSet<>();
                for (int j = 0; j < Schedule.REPLICAS; j++) {
                    if (j != p) {
                        cuts.add(new Network.Cut(p, j));
                    }
                }
                net.partition(cuts);
                what += " (replica" + p + ")";
            }
            case HALVES, BRIDGE -> {
                Set<Network.Cut> cuts = new HashSet<>();
                for (int a : f.halfA()) {
                    for (int b : f.halfB()) {
                        if (a != f.bridge() && b != f.bridge()) {
                            cuts.add(new Network.Cut(a, b));
                        }
                    }
                }
                net.partition(cuts);
            }
            case CLIENT_CUT -> net.partition(Set.of(new Network.Cut(CLIENT_HOST, f.replica())));
            case PAUSE -> signal(group.pid(f.replica()), "STOP");
            case KILL -> group.crash(f.replica());
            case CLOCK_SKEW -> {
                group.stop(f.replica());
                group.restart(f.replica(), true, List.of("-Dbftws.clock.offsetMillis=" + f.skewMillis()));
            }
        }
        counts.merge(f.kind().count(), 1, Integer::sum);
        long began = System.nanoTime();
        note(what);
        sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(f.durationMillis()), group, f);
        switch (f.kind()) {
            case PRIMARY_ALONE, HALVES, BRIDGE, CLIENT_CUT -> net.heal();
            case PAUSE -> signal(group.pid(f.replica()), "CONT");
            case KILL -> group.restart(f.replica(), f.keepData());
            case CLOCK_SKEW -> {
                group.stop(f.replica());
                group.restart(f.replica(), true, List.of());
            }
        }
        applied.add(new Applied(f, began, System.nanoTime()));
        note("healed: " + f.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + (f.kind() == Fault.Kind.KILL || f.kind() == Fault.Kind.CLOCK_SKEW ? " (replica" + f.replica()
                + " ready again)" : ""));
    }

    private void sleepUntil(long nanos, ReplicaGroup group) throws IOException, InterruptedException {
        sleepUntil(nanos, group, null);
    }

    /**
     * Sleeps until {@code nanos}, meanwhile restarting (from its data directory) a replica that ended without being
     * killed, counting it; {@code current} is the fault under way, whose replica is left alone.
     */
    private void sleepUntil(long nanos, ReplicaGroup group, Fault current) throws IOException, InterruptedException {
        while (true) {
            if (stopping) {
                throw new InterruptedException("the JVM is shutting down");
            }
            for (int i = 0; i < Schedule.REPLICAS; i++) {
                boolean struck = current != null && current.replica() == i
                        && (current.kind() == Fault.Kind.KILL || current.kind() == Fault.Kind.CLOCK_SKEW);
                if (!struck && !group.alive(i)) {
                    unexpectedExits++;
                    note(ReplicaGroup.name(i) + " ended without being killed; its last lines:\n  | "
                            + String.join("\n  | ", group.tail(i)));
                    group.restart(i, true, List.of());
                }
            }
            long left = nanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Thread.sleep(Math.min(1000, TimeUnit.NANOSECONDS.toMillis(left) + 1));
        }
    }

    private static void signal(long pid, String signal) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed: " + text);
        }
    }

    private ClientProcess startClient(Network net, Path replicasXml, Path runDir, Path history)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(net.prefix(CLIENT_HOST));
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + Soak.HEAP, "-cp", System.getProperty("java.class.path"), NemesisClient.class.getName(),
                replicasXml.toString(), runDir.resolve("client").toString(), history.toString(),
                Integer.toString(options.clients()), Integer.toString(options.keys()),
                Long.toString(options.seed()), Long.toString(options.timeoutMillis())));
        ClientProcess c = new ClientProcess(new ProcessBuilder(command).redirectErrorStream(true).start(),
                runDir.resolve("client.log"));
        c.awaitReady(CLIENT_READY);
        return c;
    }

    /** The client JVM: its output to client.log, 'ready' and 'done' watched for. */
    private static final class ClientProcess {
        private final Process process;
        private final CompletableFuture<Void> ready = new CompletableFuture<>();
        private final CompletableFuture<String> done = new CompletableFuture<>();

        ClientProcess(Process process, Path log) {
            this.process = process;
            Thread pump = new Thread(() -> pump(log), "nemesis-client-output");
            pump.setDaemon(true);
            pump.start();
        }

        private void pump(Path log) {
            try {
                ChildOutput.copy(process, log, line -> {
                    if (line.startsWith("ready client")) {
                        ready.complete(null);
                    } else if (line.startsWith("done ")) {
                        done.complete(line);
                    }
                });
            } catch (IOException e) {
                // the process is gone; the futures below say so
            }
            ready.completeExceptionally(new IOException("the client JVM ended before it was ready (see client.log)"));
            done.completeExceptionally(new IOException("the client JVM ended before it was done (see client.log)"));
        }

        void awaitReady(Duration timeout) throws IOException, InterruptedException {
            await(ready, timeout.toMillis(), "ready");
        }

        /** Asks the clients to stop and waits until they have read every key once more and ended. */
        void stop(long timeoutMillis) throws IOException, InterruptedException {
            OutputStream in = process.getOutputStream();
            in.write("stop\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            await(done, timeoutMillis, "done");
            process.waitFor(30, TimeUnit.SECONDS);
        }

        private static void await(CompletableFuture<?> f, long millis, String what)
                throws IOException, InterruptedException {
            try {
                f.get(millis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new IOException("the client JVM was not " + what + " after " + millis / 1000 + " s");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
        }

        void kill() {
            process.toHandle().destroyForcibly();
        }
    }

    /** What a run holds and releases once, normally or from the shutdown hook (Ctrl-C): processes, then the network. */
    private static final class Resources {
        Network network;
        ReplicaGroup group;
        ClientProcess client;
        private boolean released;

        synchronized void release(boolean now) {
            if (released) {
                return;
            }
            released = true;
            if (client != null) {
                client.kill();
            }
            if (group != null) {
                for (int i = 0; i < Schedule.REPLICAS; i++) {
                    try {
                        if (now) { // Ctrl-C: no time for a clean stop; SIGKILL ends a paused replica too
                            ProcessHandle.of(group.pid(i)).ifPresent(ProcessHandle::destroyForcibly);
                        } else {
                            signal(group.pid(i), "CONT"); // a paused replica must run to its clean stop
                        }
                    } catch (IOException | InterruptedException | RuntimeException e) {
                        // gone already
                    }
                }
                group.close();
            }
            if (network != null) {
                network.close();
            }
        }
    }

    private static String addresses(Network net) {
        List<String> a = new ArrayList<>();
        for (int i = 0; i < Schedule.REPLICAS; i++) {
            a.add(net.address(i));
        }
        return String.join(", ", a);
    }

    private void note(String what) {
        out.println("nemesis: " + seconds(System.nanoTime() - t0) + " s: " + what);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
