package org.bftws.bench;

import java.util.Arrays;

/**
 * Latency figures of a run, in milliseconds, from per-request nanosecond samples. Percentiles are nearest-rank:
 * p99 is the smallest sample that at least 99% of the samples do not exceed.
 */
public record LatencySummary(int samples, double meanMs, double p50Ms, double p99Ms, double maxMs) {

    public static LatencySummary of(long[] nanos) {
        if (nanos.length == 0) {
            return new LatencySummary(0, 0, 0, 0, 0);
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        return new LatencySummary(sorted.length, sum / sorted.length / 1e6, percentile(sorted, 50) / 1e6,
                percentile(sorted, 99) / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    /** Nearest rank: the sample at position ceil(p/100 * n), counting from 1. */
    static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
