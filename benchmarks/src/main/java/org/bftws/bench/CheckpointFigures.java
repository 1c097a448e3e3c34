package org.bftws.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Fig. 9 of the BFT-WS paper: how long a replica takes to checkpoint its state (the invoker's get_state until its
 * checkpoint message leaves) and how long until that checkpoint is stable here (2f+1 matching), against the size
 * of the state. As in the paper: one client issuing requests without pause, a checkpoint every 10 executions, no
 * fault; the state's size comes from the echo sample's padding ({@code echo.stateElements}). Figures are the mean
 * (and worst) over all checkpoints of all four replicas.
 */
final class CheckpointFigures {

    private static final int INTERVAL = 10;

    private CheckpointFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws Exception {
        List<Integer> sizes = options.sizes(List.of(0, 1_000, 10_000, 127_000), List.of(0, 10_000));
        int requests = options.quick() ? 30 : 60;
        out.println("checkpoint latency and time to stable (Fig. 9): checkpoint every " + INTERVAL + " requests, "
                + requests + " appends from one client, view change timeout 10 s (no fault)");
        out.println("| state elements | state size | checkpoints | checkpoint ms mean | p50 | max | stable ms mean | max |");
        out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for (int elements : sizes) {
            try (MeasureGroup g = MeasureGroup.start(options, "checkpoint-" + elements,
                    MeasureGroup.protocol(INTERVAL, "10s"), false, elements)) {
                boolean done = g.load("cp" + elements, requests, 600);
                Thread.sleep(1_000); // the last checkpoint's messages may still be on their way
                Pooled cp = new Pooled();
                Pooled stable = new Pooled();
                long bytes = -1;
                for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                    ReplicaTimings t = g.timings(i);
                    cp.add(t.series("checkpoint"));
                    stable.add(t.series("until-stable"));
                    bytes = Math.max(bytes, t.checkpointBytes());
                }
                out.printf(Locale.ROOT, "| %d | %s | %d | %s | %s | %s | %s | %s |%s%n", elements,
                        ReplicaTimings.bytes(bytes), cp.count, ReplicaTimings.ms(cp.mean()), ReplicaTimings.ms(cp.p50),
                        ReplicaTimings.ms(cp.max), ReplicaTimings.ms(stable.mean()), ReplicaTimings.ms(stable.max),
                        done ? "" : " (the client did not finish: " + g.clients().calls().size() + " calls)");
                out.flush();
            }
        }
    }

    /** Series of several replicas pooled: mean weighted by the samples each kept, the largest median and max. */
    static final class Pooled {
        long count;
        private long kept;
        private double sum;
        double p50 = Double.NaN;
        double max = Double.NaN;

        void add(ReplicaTimings.Series s) {
            if (s.count() == 0) {
                return;
            }
            long k = Math.min(s.count(), 4096);
            count += s.count();
            kept += k;
            sum += s.meanMs() * k;
            p50 = Double.isNaN(p50) ? s.p50Ms() : Math.max(p50, s.p50Ms());
            max = Double.isNaN(max) ? s.maxMs() : Math.max(max, s.maxMs());
        }

        double mean() {
            return kept == 0 ? Double.NaN : sum / kept;
        }
    }
}
