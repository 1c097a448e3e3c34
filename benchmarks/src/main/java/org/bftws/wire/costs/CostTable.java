package org.bftws.wire.costs;

import java.util.Arrays;

/** Runs a step after a warm-up and prints its median and 90th percentile; no assertions, figures for the docs. */
final class CostTable {
    /** One measured step; returns something so the JIT cannot drop the work. */
    @FunctionalInterface
    interface Step {
        Object run() throws Exception;
    }

    private final int warmup;
    private final int runs;
    private Object sink;

    CostTable(int warmup, int runs) {
        this.warmup = warmup;
        this.runs = runs;
    }

    void header(String title) {
        System.out.printf("%n%s%n  %-66s %10s %10s%n", title, "", "median ms", "p90 ms");
    }

    void measure(String what, Step step) throws Exception {
        measure(what, step, warmup, runs);
    }

    void measure(String what, Step step, int warm, int count) throws Exception {
        for (int i = 0; i < warm; i++) {
            sink = step.run();
        }
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            sink = step.run();
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        System.out.printf("  %-66s %10.4f %10.4f%n", what, nanos[count / 2] / 1e6, nanos[count * 9 / 10] / 1e6);
    }

    /** Keeps the last result reachable. */
    Object sink() {
        return sink;
    }
}
