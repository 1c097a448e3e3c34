package org.bftws.bench;

import java.util.List;
import java.util.Map;

/**
 * What an echo run measured. Latency figures cover the requests that succeeded; throughput is successful requests
 * per second of the measured phase's wall time.
 *
 * @param ok             measured requests answered with the right echo
 * @param failed         measured requests that failed (fault, no decided reply, wrong echo)
 * @param warmupFailed   warm-up requests that failed (not in {@code failed}, but a run with any is not clean)
 * @param okNanos        latency of every successful measured request
 * @param wallNanos      wall time of the measured phase
 * @param failures       failure reasons with their counts
 * @param notes          other problems worth printing (e.g. a sequence that could not be terminated)
 */
public record EchoResult(int ok, int failed, int warmupFailed, long[] okNanos, long wallNanos, Map<String, Long> failures,
                  List<String> notes) {

    public LatencySummary latency() {
        return LatencySummary.of(okNanos);
    }

    public double throughput() {
        return wallNanos <= 0 ? 0 : ok / (wallNanos / 1e9);
    }

    public boolean clean() {
        return failed == 0 && warmupFailed == 0;
    }
}
