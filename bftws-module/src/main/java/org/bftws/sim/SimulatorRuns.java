package org.bftws.sim;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * What {@code ./bftws sim} runs: seeds S..S+N-1 (on all cores; each schedule is single-threaded and deterministic),
 * ending with {@code schedules: N, violations: V, stuck: S}, or one seed replayed with its trace. Each returns 1 when
 * a schedule violated an invariant or got stuck, else 0.
 */
public final class SimulatorRuns {

    private SimulatorRuns() {
    }

    /** Replays schedule {@code seed} and prints its trace and its outcome. */
    public static int replay(long seed, PrintWriter out) {
        Simulation.Result r = Simulation.run(seed, true);
        out.print(r.trace());
        report(r, out);
        int v = r.violations().isEmpty() ? 0 : 1;
        int s = r.stuck() == null ? 0 : 1;
        out.printf("schedules: 1, violations: %d, stuck: %d%n", v, s);
        return v + s == 0 ? 0 : 1;
    }

    /**
     * Runs seeds {@code first..first+count-1}; prints each failed schedule, with {@code verbose} each passed one too
     * (its ticks and messages), and the coverage and totals at the end.
     */
    public static int runMany(long first, long count, boolean verbose, PrintWriter out) {
        AtomicLong violations = new AtomicLong();
        AtomicLong stuck = new AtomicLong();
        AtomicLong done = new AtomicLong();
        AtomicLong maxAfterFaults = new AtomicLong();
        java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.LongAdder> coverage = new java.util.concurrent.ConcurrentHashMap<>();
        long started = System.nanoTime();
        LongStream.range(first, first + count).parallel().forEach(seed -> {
            Simulation.Result r = Simulation.run(seed, false);
            if (!r.violations().isEmpty()) {
                violations.incrementAndGet();
            }
            if (r.stuck() != null) {
                stuck.incrementAndGet();
            }
            if (!r.ok() || verbose) {
                synchronized (SimulatorRuns.class) {
                    report(r, out);
                }
            }
            maxAfterFaults.accumulateAndGet(r.afterFaults(), Math::max);
            tally(coverage, r);
            long n = done.incrementAndGet();
            if (n % 10000 == 0) {
                out.printf("... %d schedules, %d violations, %d stuck, %.0f s%n", n, violations.get(),
                        stuck.get(), (System.nanoTime() - started) / 1e9);
            }
        });
        out.println("covered (schedules with the fault, or events over all schedules):");
        new java.util.TreeMap<>(coverage).forEach((k, v) -> out.printf("  %-42s %,d%n", k, v.sum()));
        out.printf("ran seeds %d..%d in %.1f s; slowest recovery after the faults stopped: %d ticks%n", first,
                first + count - 1, (System.nanoTime() - started) / 1e9, maxAfterFaults.get());
        out.printf("schedules: %d, violations: %d, stuck: %d%n", count, violations.get(), stuck.get());
        return violations.get() + stuck.get() == 0 ? 0 : 1;
    }

    private static void tally(java.util.Map<String, java.util.concurrent.atomic.LongAdder> coverage, Simulation.Result r) {
        java.util.function.BiConsumer<String, Long> add = (k, v) ->
                coverage.computeIfAbsent(k, x -> new java.util.concurrent.atomic.LongAdder()).add(v);
        Scenario s = r.scenario();
        add.accept("schedule: configuration " + s.configuration() + ", f=" + s.membership().f(), 1L);
        s.byzantine().values().forEach(set -> set.forEach(b -> add.accept("schedule: Byzantine node " + b, 1L)));
        if (s.byzantineClient()) {
            add.accept("schedule: Byzantine client", 1L);
        }
        if (s.macRequests()) {
            add.accept("schedule: requests authenticated with MACs", 1L);
        }
        if (s.ends().terminate()) {
            add.accept("schedule: clients terminate their sequences", 1L);
        }
        if (s.ends().replayer()) {
            add.accept("schedule: a client replays on its ended sequence", 1L);
        }
        if (s.flood().on()) {
            add.accept("schedule: a flooding client", 1L);
        }
        if (s.flood().on() && s.onlyTheClientMisbehaves()) {
            add.accept("schedule: a flooding client, nothing else misbehaves", 1L);
        }
        if (s.onlyTheClientMisbehaves()) {
            add.accept("schedule: only the client misbehaves", 1L);
        }
        if (s.slow().on()) {
            add.accept("schedule: a slow service", 1L);
        }
        if (s.options().tentativeExecution()) {
            add.accept("schedule: tentative execution", 1L);
        }
        if (!s.partitions().isEmpty()) {
            add.accept("schedule: partitions", 1L);
        }
        if (s.crashes().stream().anyMatch(Scenario.Crash::amnesia)) {
            add.accept("schedule: restart without memory", 1L);
        }
        if (s.crashes().stream().anyMatch(c -> c.restart() == Scenario.Restart.MEMORY)) {
            add.accept("schedule: crash and restart with memory", 1L);
        }
        if (s.crashes().stream().anyMatch(c -> c.restart() == Scenario.Restart.DISK)) {
            add.accept("schedule: crash and restart from disk", 1L);
        }
        if (s.crashes().stream().filter(c -> c.restart() == Scenario.Restart.DISK).map(Scenario.Crash::at).distinct()
                .anyMatch(at -> s.crashes().stream().filter(c -> c.at() == at).count() >= s.membership().size() - s.membership().f())) {
            add.accept("schedule: whole group restarts from disk", 1L);
        }
        if (s.loss() > 0) {
            add.accept("schedule: message loss, duplication, reordering", 1L);
        }
        r.events().forEach((k, v) -> add.accept("event: " + k, v));
    }

    private static void report(Simulation.Result r, PrintWriter out) {
        if (r.ok()) {
            out.printf("seed %d ok: %d ticks, %d messages%n", r.scenario().seed(), r.ticks(), r.messages());
            return;
        }
        out.print("FAILED " + r.scenario().describe());
        r.violations().forEach(v -> out.println("  violation: " + v));
        if (r.stuck() != null) {
            out.println("  stuck: " + r.stuck());
        }
        out.println("  replay: ./bftws sim --seed " + r.scenario().seed());
    }
}
