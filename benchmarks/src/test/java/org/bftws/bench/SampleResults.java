package org.bftws.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** Hand-made point results for the report tests: figures chosen so ratios are easy to check. */
final class SampleResults {

    private SampleResults() {
    }

    /** A successful point: {@code meanMs} latency, {@code rps} at the clients, nodes each at {@code nodeCpu}. */
    static PointResult ok(BenchSetup setup, int size, int clients, double meanMs, double rps, double nodeCpu) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(setup.nodes(), 4); i++) {
            cpu.put("replica" + i, nodeCpu);
        }
        for (int i = 0; i < setup.nodes() - 4; i++) {
            cpu.put("exec" + i, nodeCpu / 2);
        }
        cpu.put(CpuSamples.CLIENT, 3.5);
        return new PointResult(setup, new BenchPoint(size, clients), PointResult.OK, 1000, 1000, 0, 0,
                new LatencySummary(1000, meanMs, meanMs * 0.9, meanMs * 3, meanMs * 5), rps, rps * 0.99,
                1000 / rps, cpu, 1000 / nodeCpu, setup.kind() == BenchSetup.Kind.BFT ? 0 : Double.NaN, 2.5, "");
    }

    static PointResult failed(BenchSetup setup, int size, int clients, String why) {
        return PointResult.notRun(setup, new BenchPoint(size, clients), 1000, why);
    }
}
