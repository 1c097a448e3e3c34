package org.bftws.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The nodes' own counters at the measured window's edges ({@code stats}): throughput at the service, as the paper
 * measures it, and the view changes during the window. Each executing node executes every request
 * ({@code delivered=}); a client completes a request once f+1 of them replied, so the service's rate is that of the
 * (f+1)-th busiest executing node (the node itself when unreplicated). Ordering nodes report their view
 * ({@code view=}); the highest view at the end less the highest at the start is how many views the window took.
 */
final class ServiceRate {

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);

    private final Set<String> executing;
    private final int f;
    private final Map<String, Long> before = new HashMap<>();
    private final Map<String, Long> after = new HashMap<>();
    private final Map<String, Long> viewBefore = new HashMap<>();
    private final Map<String, Long> viewAfter = new HashMap<>();

    ServiceRate(Set<String> executing, int f) {
        this.executing = executing;
        this.f = f;
    }

    void start(List<ReplicaProcess> nodes) {
        read(nodes, true);
    }

    void end(List<ReplicaProcess> nodes) {
        read(nodes, false);
    }

    private void read(List<ReplicaProcess> nodes, boolean start) {
        for (ReplicaProcess r : nodes) {
            try {
                Optional<String> line = r.stats(ASK_TIMEOUT);
                if (line.isPresent()) {
                    if (start) {
                        started(r.name(), line.get());
                    } else {
                        ended(r.name(), line.get());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A stats line of {@code node} read when the window opened. */
    void started(String node, String statsLine) {
        record(before, viewBefore, node, statsLine);
    }

    /** A stats line of {@code node} read when the window closed. */
    void ended(String node, String statsLine) {
        record(after, viewAfter, node, statsLine);
    }

    private void record(Map<String, Long> delivered, Map<String, Long> views, String node, String statsLine) {
        if (executing.contains(node)) {
            field(statsLine, "delivered").ifPresent(d -> delivered.put(node, d));
        }
        field(statsLine, "view").ifPresent(v -> views.put(node, v));
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

    /** Views the window took (0: the primary stayed); NaN for nodes that do not order (unreplicated). */
    double viewChanges() {
        if (viewBefore.isEmpty() || viewAfter.isEmpty()) {
            return Double.NaN;
        }
        long start = viewBefore.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long end = viewAfter.values().stream().mapToLong(Long::longValue).max().orElse(0);
        return Math.max(0, end - start);
    }

    /** The {@code delivered=} field of a stats line. */
    static Optional<Long> delivered(String stats) {
        return field(stats, "delivered");
    }

    private static Optional<Long> field(String stats, String name) {
        for (String field : stats.split(" ")) {
            if (field.startsWith(name + "=")) {
                try {
                    return Optional.of(Long.parseLong(field.substring(name.length() + 1)));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
