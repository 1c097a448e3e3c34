package org.bftws.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time each process of a run used during the measured phase: every replica JVM and this JVM (the client),
 * sampled when the measured requests start and again when they end. On a shared machine this, not wall time, says
 * what a request costs each party; 1 / (the largest replica CPU per request) projects the throughput of a testbed
 * with one host per replica, which is what the paper measured.
 */
final class CpuSamples {

    static final String CLIENT = "client";

    private final Map<String, Duration> before = new LinkedHashMap<>();
    private final Map<String, Duration> after = new LinkedHashMap<>();

    /** Takes the first sample. */
    void start(List<ReplicaProcess> replicas) {
        sample(replicas, before);
    }

    /** Takes the second sample. */
    void end(List<ReplicaProcess> replicas) {
        sample(replicas, after);
    }

    private static void sample(List<ReplicaProcess> replicas, Map<String, Duration> into) {
        for (ReplicaProcess r : replicas) {
            r.cpu().ifPresent(cpu -> into.put(r.name(), cpu));
        }
        ProcessHandle.current().info().totalCpuDuration().ifPresent(cpu -> into.put(CLIENT, cpu));
    }

    /** CPU seconds {@code name} used per 1,000 requests; empty if it was not sampled twice (it crashed). */
    Optional<Double> perThousand(String name, int requests) {
        Duration b = before.get(name);
        Duration a = after.get(name);
        if (a == null || b == null || requests == 0) {
            return Optional.empty();
        }
        return Optional.of(a.minus(b).toNanos() / 1e9 * 1000.0 / requests);
    }

    /** Projected req/s with one host per replica: 1 / (largest replica CPU seconds per request); empty if unknown. */
    Optional<Double> projectedThroughput(List<ReplicaProcess> replicas, int requests) {
        double worst = 0;
        for (ReplicaProcess r : replicas) {
            Optional<Double> s = perThousand(r.name(), requests);
            if (s.isPresent()) {
                worst = Math.max(worst, s.get());
            }
        }
        return worst <= 0 ? Optional.empty() : Optional.of(1000.0 / worst);
    }
}
