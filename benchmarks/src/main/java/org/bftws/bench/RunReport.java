package org.bftws.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the testbed prints about a run: latency and throughput, CPU per 1,000 requests for every process, the
 * replicas' own counters, failures by reason, and the final line scripts rely on
 * ({@code echo: N ok, F failed, mean X ms, p99 Y ms, T req/s}).
 */
final class RunReport {

    private static final int REASONS_SHOWN = 5;

    private final TestbedOptions options;
    private final PrintStream out;
    private EchoResult result;
    private boolean warned;
    private boolean statesDiffer;
    /** {@code --services 2}: the second service's client did not get every answer. */
    private boolean otherServicesFailed;
    /** The Byzantine run's check, whose states line comes just before the last line; null without one. */
    private ByzantineCheck byzantine;
    /** {@code --hostile}: the check failed (a view changed, or no honest answer soon after the attack). */
    private boolean hostileFailed;

    RunReport(TestbedOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** Prints the run's figures. */
    void result(EchoResult r, CpuSamples cpu, List<ReplicaProcess> replicas) {
        this.result = r;
        // with --hostile the measured phase is timed: the requests it measured, not the tables' size
        int measured = options.hostile() == null ? options.requests() : r.ok() + r.failed();
        LatencySummary l = r.latency();
        out.printf(Locale.ROOT, "latency: mean %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d samples)%n",
                l.meanMs(), l.p50Ms(), l.p99Ms(), l.maxMs(), l.samples());
        out.printf(Locale.ROOT, "throughput: %.1f req/s (%d requests in %.2f s, %d client thread%s)%n",
                r.throughput(), r.ok(), r.wallNanos() / 1e9, options.clients(), options.clients() == 1 ? "" : "s");
        List<String> parts = new ArrayList<>();
        for (ReplicaProcess p : replicas) {
            parts.add(p.name() + " " + cpu.perThousand(p.name(), measured)
                    .map(s -> String.format(Locale.ROOT, "%.2f", s)).orElse("n/a"));
        }
        parts.add("client " + cpu.perThousand(CpuSamples.CLIENT, measured)
                .map(s -> String.format(Locale.ROOT, "%.2f", s)).orElse("n/a"));
        out.println("cpu seconds per 1,000 requests: " + String.join(", ", parts));
        cpu.projectedThroughput(replicas, measured).ifPresent(t -> out.printf(Locale.ROOT,
                "projected throughput with one host per replica: %.0f req/s (1 / largest replica CPU per request)%n",
                t));
    }

    /**
     * Prints every replica's counters once they have settled (the client waits for f+1 replies only, so slower
     * replicas may still be executing when it ends), and warns about a replica that executed fewer requests than
     * were sent (here: the warm-up and measured ones), in order or as unordered reads, since each replica is meant to
     * execute every request.
     */
    void replicaStats(List<ReplicaProcess> replicas, Set<String> executing, int sent) throws InterruptedException {
        List<String> lagging = new ArrayList<>();
        List<String> halted = new ArrayList<>();
        Map<ReplicaProcess, Optional<String>> all = settled(replicas);
        for (ReplicaProcess r : replicas) {
            Optional<String> stats = all.get(r);
            out.println("  " + r.name() + ": " + stats.orElse(r.alive() ? "did not answer 'stats'" : "not running"));
            stats.map(s -> ReplicaGroup.fields(s).get("not-executing-since"))
                    .ifPresent(seq -> halted.add(r.name() + " since " + seq));
            long executed = stats.map(RunReport::executed).orElse(-1L);
            if (stats.isPresent() && executing.contains(r.name()) && executed < sent) {
                lagging.add(r.name() + " " + executed + " of " + sent);
            }
        }
        if (!halted.isEmpty()) {
            warned = true;
            out.println("warning: replicas that execute nothing (their service could not install or give a state; "
                    + "they keep fetching one): " + String.join(", ", halted)
                    + " (their logs are in the run directory)");
        }
        if (!lagging.isEmpty()) {
            warned = true;
            out.println("warning: replicas that did not execute every request: " + String.join(", ", lagging)
                    + " (their logs are in the run directory)");
        }
    }

    /**
     * With a Byzantine replica: prints the lie line now and keeps the states line for just before the last line; a
     * check that failed makes the run fail.
     */
    void byzantineCheck(ByzantineCheck check) {
        out.println(check.lie());
        byzantine = check;
        statesDiffer |= !check.ok();
    }

    /** {@code --hostile}: the attack's check (printed by {@link HostileRun}); one that failed makes the run fail. */
    void hostileCheck(boolean ok) {
        hostileFailed |= !ok;
    }

    /** Prints the kv sample's state check; a check that failed makes the run fail. */
    void stateCheck(String line) {
        out.println("kv: " + line);
        statesDiffer |= !line.startsWith("ok");
    }

    /** Prints {@code service}'s state check; a check that failed makes the run fail. */
    void stateCheck(String service, String line) {
        out.println(service + " state: " + line);
        statesDiffer |= !line.startsWith("ok");
    }

    /**
     * {@code --services 2}: the second service's result, one line as the final one ({@code kv: N ok, F failed, mean
     * X ms, p99 Y ms, T req/s}) and its failures; one that failed makes the run fail.
     */
    void serviceResult(String service, EchoResult r) {
        LatencySummary l = r.latency();
        out.printf(Locale.ROOT, "%s: %d ok, %d failed, mean %.2f ms, p99 %.2f ms, %.1f req/s%n", service, r.ok(),
                r.failed(), l.meanMs(), l.p99Ms(), r.throughput());
        r.failures().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(REASONS_SHOWN)
                .forEach(e -> out.println(service + " failed " + e.getValue() + "x: " + e.getKey()));
        otherServicesFailed |= !r.clean();
    }

    /** True when a warning was printed: the run directory is then kept for its logs. */
    boolean warned() {
        return warned;
    }

    /**
     * Every replica's settled counters ({@link #settled(ReplicaProcess)}), read at the same time: a replica whose
     * counters keep moving (the SOAP channel's messages) takes the ~5 s limit, and ten of them one after another took
     * most of a short run.
     */
    private static Map<ReplicaProcess, Optional<String>> settled(List<ReplicaProcess> replicas)
            throws InterruptedException {
        Map<ReplicaProcess, java.util.concurrent.Future<Optional<String>>> pending = new java.util.LinkedHashMap<>();
        java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, replicas.size()), r -> {
                    Thread t = new Thread(r, "settled-stats");
                    t.setDaemon(true);
                    return t;
                });
        try {
            for (ReplicaProcess r : replicas) {
                pending.put(r, readers.submit(() -> settled(r)));
            }
            Map<ReplicaProcess, Optional<String>> all = new java.util.HashMap<>();
            for (Map.Entry<ReplicaProcess, java.util.concurrent.Future<Optional<String>>> e : pending.entrySet()) {
                try {
                    all.put(e.getKey(), e.getValue().get());
                } catch (java.util.concurrent.ExecutionException failed) {
                    all.put(e.getKey(), Optional.empty());
                }
            }
            return all;
        } finally {
            readers.shutdownNow();
        }
    }

    /**
     * Its counters, read until two readings 300 ms apart agree on every counter but the PBFT traffic's (at most ~5 s):
     * an idle group keeps exchanging PBFT messages, so the {@code PBFT-} counters never stop moving, while the
     * requests' counters stop once the last request is executed.
     */
    private static Optional<String> settled(ReplicaProcess r) throws InterruptedException {
        Optional<String> last = r.stats(Duration.ofSeconds(5));
        for (int i = 0; i < 16 && last.isPresent(); i++) {
            Thread.sleep(300);
            Optional<String> now = r.stats(Duration.ofSeconds(5));
            boolean settled = now.map(RunReport::withoutTraffic).equals(last.map(RunReport::withoutTraffic));
            last = now;
            if (settled) {
                break;
            }
        }
        return last;
    }

    /** A stats answer without its PBFT traffic counters ({@code PBFT-...=N}). */
    static String withoutTraffic(String stats) {
        return stats.replaceAll("(^|\\s)PBFT-[^=\\s]+=\\d+", "");
    }

    /**
     * The requests a replica executed: those delivered in order, and (--read-only) the reads it executed unordered,
     * which it counts apart ({@code read-only-requests-executed}); -1 when it does not say.
     */
    static long executed(String stats) {
        long delivered = field(stats, "delivered");
        return delivered < 0 ? -1 : delivered + Math.max(0, field(stats, "read-only-requests-executed"));
    }

    private static long field(String stats, String name) {
        for (String field : stats.split(" ")) {
            if (field.startsWith(name + "=")) {
                return Long.parseLong(field.substring(name.length() + 1));
            }
        }
        return -1;
    }

    /** Prints failures and notes; true when the run was clean (it ran, and nothing failed). */
    boolean printSummary() {
        if (result == null) {
            out.println("the echo client did not run");
            return false;
        }
        if (result.warmupFailed() > 0) {
            out.println(result.warmupFailed() + " warm-up request(s) failed");
        }
        result.failures().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(REASONS_SHOWN)
                .forEach(e -> out.println("failed " + e.getValue() + "x: " + e.getKey()));
        result.notes().forEach(n -> out.println("note: " + n));
        return result.clean() && !statesDiffer && !otherServicesFailed && !hostileFailed;
    }

    /** The last line: {@code echo: N ok, F failed, mean X ms, p99 Y ms, T req/s}; nothing ran counts all as failed. */
    void printFinalLine() {
        if (byzantine != null) {
            out.println(byzantine.states());
        }
        if (result == null) {
            out.printf(Locale.ROOT, "echo: 0 ok, %d failed, mean 0.00 ms, p99 0.00 ms, 0.0 req/s%n",
                    options.hostile() == null ? options.requests() : 0);
            return;
        }
        LatencySummary l = result.latency();
        out.printf(Locale.ROOT, "echo: %d ok, %d failed, mean %.2f ms, p99 %.2f ms, %.1f req/s%n", result.ok(),
                result.failed(), l.meanMs(), l.p99Ms(), result.throughput());
    }
}
