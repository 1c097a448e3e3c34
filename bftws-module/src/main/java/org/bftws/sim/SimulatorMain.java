package org.bftws.sim;

import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * {@code ./bftws sim}: runs seeds S..S+N-1 (on all cores; each schedule is single-threaded and deterministic) and
 * ends with {@code schedules: N, violations: V, stuck: S}; {@code --seed S} replays one schedule with its trace.
 * Exits 1 when any schedule violated an invariant or got stuck, 2 on bad arguments.
 */
public final class SimulatorMain {

    private SimulatorMain() {
    }

    public static void main(String[] args) {
        long seeds = 1000;
        long first = 0;
        Long single = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seeds" -> seeds = Long.parseLong(args[++i]);
                    case "--first" -> first = Long.parseLong(args[++i]);
                    case "--seed" -> single = Long.parseLong(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (RuntimeException e) {
            System.err.println("usage: bftws sim --seeds N [--first S] | --seed S   (" + e.getMessage() + ")");
            System.exit(2);
        }
        System.exit(single != null ? replay(single) : runMany(first, seeds));
    }

    private static int replay(long seed) {
        Simulation.Result r = Simulation.run(seed, true);
        System.out.print(r.trace());
        report(r);
        int v = r.violations().isEmpty() ? 0 : 1;
        int s = r.stuck() == null ? 0 : 1;
        System.out.printf("schedules: 1, violations: %d, stuck: %d%n", v, s);
        return v + s == 0 ? 0 : 1;
    }

    private static int runMany(long first, long count) {
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
            if (!r.ok()) {
                synchronized (SimulatorMain.class) {
                    report(r);
                }
            }
            maxAfterFaults.accumulateAndGet(r.afterFaults(), Math::max);
            tally(coverage, r);
            long n = done.incrementAndGet();
            if (n % 10000 == 0) {
                System.out.printf("... %d schedules, %d violations, %d stuck, %.0f s%n", n, violations.get(),
                        stuck.get(), (System.nanoTime() - started) / 1e9);
            }
        });
        System.out.println("covered (schedules with the fault, or events over all schedules):");
        new java.util.TreeMap<>(coverage).forEach((k, v) -> System.out.printf("  %-42s %,d%n", k, v.sum()));
        System.out.printf("ran seeds %d..%d in %.1f s; slowest recovery after the faults stopped: %d ticks%n", first,
                first + count - 1, (System.nanoTime() - started) / 1e9, maxAfterFaults.get());
        System.out.printf("schedules: %d, violations: %d, stuck: %d%n", count, violations.get(), stuck.get());
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
        if (s.onlyTheClientMisbehaves()) {
            add.accept("schedule: only the client misbehaves", 1L);
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

    private static void report(Simulation.Result r) {
        if (r.ok()) {
            System.out.printf("seed %d ok: %d ticks, %d messages%n", r.scenario().seed(), r.ticks(), r.messages());
            return;
        }
        System.out.print("FAILED " + r.scenario().describe());
        r.violations().forEach(v -> System.out.println("  violation: " + v));
        if (r.stuck() != null) {
            System.out.println("  stuck: " + r.stuck());
        }
        System.out.println("  replay: ./bftws sim --seed " + r.scenario().seed());
    }
}
