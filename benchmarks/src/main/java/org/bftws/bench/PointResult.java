package org.bftws.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one point of the suite measured (or why it was not). Missing figures are NaN.
 *
 * @param setup        the deployment
 * @param point        size and clients
 * @param status       {@link #OK}, {@link #FAILED} (some requests failed, or the setup did not start) or
 *                     {@link #NOT_MEASURED}
 * @param requested    measured requests asked for
 * @param samples      measured requests answered correctly: the latency samples
 * @param failed       measured requests that failed
 * @param warmupFailed warm-up requests that failed
 * @param latency      client-side latency of the samples
 * @param clientRps    successful requests per second of the measured phase's wall time, at the clients
 * @param serviceRps   requests per second the service executed in the same window (the (f+1)-th busiest executing
 *                     node, whose replies complete the clients' votes)
 * @param wallSeconds  the measured phase's wall time
 * @param cpu          CPU seconds per 1,000 requests of each process (nodes by name, and {@value CpuSamples#CLIENT})
 * @param projectedRps 1 / (the largest node CPU time per request): the throughput with one host per node
 * @param viewChanges  views the ordering nodes went through during the window (NaN unreplicated)
 * @param load1        the machine's one-minute load average when the point ended (other work shares the box)
 * @param note         why it failed, or what else to know
 */
record PointResult(BenchSetup setup, BenchPoint point, String status, int requested, int samples, int failed,
                   int warmupFailed, LatencySummary latency, double clientRps, double serviceRps, double wallSeconds,
                   Map<String, Double> cpu, double projectedRps, double viewChanges, double load1,
                   String note) {

    static final String OK = "ok";
    static final String FAILED = "failed";
    static final String NOT_MEASURED = "not measured";

    /** Process names that have a CPU column, in column order. */
    static final List<String> PROCESSES = List.of("replica0", "replica1", "replica2", "replica3", "exec0", "exec1",
            "exec2", "relay0", "relay1", "relay2", "relay3", CpuSamples.CLIENT);

    PointResult {
        cpu = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(cpu));
    }

    /** A point that produced no figures: its setup did not start, or it could not run. */
    static PointResult notRun(BenchSetup setup, BenchPoint point, int requested, String why) {
        return new PointResult(setup, point, FAILED, requested, 0, 0, 0, LatencySummary.of(new long[0]), Double.NaN,
                Double.NaN, Double.NaN, Map.of(), Double.NaN, Double.NaN, Load.now(), why);
    }

    boolean ok() {
        return OK.equals(status);
    }

    /** Fewer samples than asked, without failures: the time cap ended the point. */
    boolean capped() {
        return ok() && samples < requested;
    }

    /** The largest node (not client) CPU seconds per 1,000 requests; NaN if none was measured. */
    double busiestNodeCpu() {
        double worst = Double.NaN;
        for (Map.Entry<String, Double> e : cpu.entrySet()) {
            if (!e.getKey().equals(CpuSamples.CLIENT) && !e.getValue().isNaN()
                    && (Double.isNaN(worst) || e.getValue() > worst)) {
                worst = e.getValue();
            }
        }
        return worst;
    }
}
