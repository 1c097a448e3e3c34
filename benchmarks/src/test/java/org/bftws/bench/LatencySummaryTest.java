package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/** Latency figures: nearest-rank percentiles over the samples, in milliseconds. */
class LatencySummaryTest {

    @Test
    void percentilesAreNearestRankOverTheSortedSamples() {
        // 1..100 ms, shuffled: p50 is the 50th smallest, p99 the 99th, max the 100th, mean 50.5
        long[] nanos = LongStream.rangeClosed(1, 100).map(i -> ((i * 37) % 100 + 1) * 1_000_000L).toArray();
        LatencySummary s = LatencySummary.of(nanos);
        assertEquals(100, s.samples());
        assertEquals(50.0, s.p50Ms(), 1e-9);
        assertEquals(99.0, s.p99Ms(), 1e-9);
        assertEquals(100.0, s.maxMs(), 1e-9);
        assertEquals(50.5, s.meanMs(), 1e-9);
    }

    @Test
    void withFewSamplesP99IsTheLargest() {
        LatencySummary s = LatencySummary.of(new long[] {3_000_000, 1_000_000, 2_000_000});
        assertEquals(3.0, s.p99Ms(), 1e-9);
        assertEquals(2.0, s.p50Ms(), 1e-9);
    }

    @Test
    void noSamplesGiveZeros() {
        assertEquals(new LatencySummary(0, 0, 0, 0, 0), LatencySummary.of(new long[0]));
    }
}
