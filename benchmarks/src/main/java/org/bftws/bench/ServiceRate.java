package org.bftws.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Throughput measured at the service, as the paper does: how many requests the executing nodes executed during the
 * measured window, from their {@code stats} counters ({@code delivered=}) read at both edges. Each executing node
 * executes every request; a client completes a request once f+1 of them replied, so the service's rate is that of
 * the (f+1)-th busiest executing node (the node itself when unreplicated).
 */
final class ServiceRate {

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);

    private final Set<String> executing;
    private final int f;
    private final Map<String, Long> before = new HashMap<>();
    private final Map<String, Long> after = new HashMap<>();

    ServiceRate(Set<String> executing, int f) {
        this.executing = executing;
        this.f = f;
    }

    void start(List<ReplicaProcess> nodes) {
        read(nodes, before);
    }

    void end(List<ReplicaProcess> nodes) {
        read(nodes, after);
    }

    private void read(List<ReplicaProcess> nodes, Map<String, Long> into) {
        for (ReplicaProcess r : nodes) {
            if (!executing.contains(r.name())) {
                continue;
            }
            try {
                r.stats(ASK_TIMEOUT).ifPresent(line -> record(into, r.name(), line));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A stats line of {@code node} read when the window opened. */
    void started(String node, String statsLine) {
        record(before, node, statsLine);
    }

    /** A stats line of {@code node} read when the window closed. */
    void ended(String node, String statsLine) {
        record(after, node, statsLine);
    }

    private void record(Map<String, Long> into, String node, String statsLine) {
        if (executing.contains(node)) {
            delivered(statsLine).ifPresent(d -> into.put(node, d));
        }
    }

    /** Requests per second over {@code wallSeconds}; NaN when fewer than f+1 nodes answered at both edges. */
    double rate(double wallSeconds) {
        List<Long> executed = new ArrayList<>();
        for (Map.Entry<String, Long> e : before.entrySet()) {
            Long a = after.get(e.getKey());
            if (a != null) {
                executed.add(a - e.getValue());
            }
        }
        if (executed.size() < f + 1 || wallSeconds <= 0) {
            return Double.NaN;
        }
        executed.sort(java.util.Comparator.reverseOrder());
        return executed.get(f) / wallSeconds;
    }

    /** The {@code delivered=} field of a stats line. */
    static Optional<Long> delivered(String stats) {
        for (String field : stats.split(" ")) {
            if (field.startsWith("delivered=")) {
                try {
                    return Optional.of(Long.parseLong(field.substring("delivered=".length())));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
