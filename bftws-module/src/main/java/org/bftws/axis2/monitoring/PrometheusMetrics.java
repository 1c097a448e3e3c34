package org.bftws.axis2.monitoring;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.bftws.monitoring.ReplicaMXBean;

/**
 * The node's figures for Prometheus (Micrometer's Prometheus registry): the counters of the status page, each map of
 * counters as one metric with its entries as a {@code counter} (or {@code reason}) label, the replica's view, stable
 * checkpoint and executed requests, and the certificates' expiry as gauges in seconds since the epoch
 * ({@code bftws_certificate_expiry_seconds{certificate="party certificate"}}: alert when it comes near {@code time()}).
 * Every series carries the node's {@code party} label. An entry that appears later (a refusal reason seen for the
 * first time) becomes a series at the next scrape.
 */
final class PrometheusMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final NodeMonitor node;
    private final Supplier<ReplicaMonitor> replica;

    PrometheusMetrics(NodeMonitor node, Supplier<ReplicaMonitor> replica) {
        this.node = node;
        this.replica = replica;
        registry.config().commonTags("party", node.getParty());
        gauge("bftws.node.pending.requests", "requests accepted and not yet delivered", n -> n.getPendingRequests());
        gauge("bftws.node.held.exchanges", "HTTP exchanges parked waiting for a reply", n -> n.getHeldExchanges());
        gauge("bftws.node.queued.connections", "HTTP connections waiting for a worker", n -> n.getQueuedConnections());
        FunctionCounter.builder("bftws.node.delivered.requests", node, n -> n.getDeliveredRequests())
                .description("requests delivered to the service").register(registry);
    }

    private void gauge(String name, String description, ToDoubleFunction<NodeMonitor> value) {
        Gauge.builder(name, node, value).description(description).register(registry);
    }

    /** The text exposition format Prometheus scrapes. */
    synchronized String scrape() {
        counters("bftws.rm", "counter", "the WS-RM layer's counters", NodeMonitor::getRmCounters, node);
        counters("bftws.security.refusals", "reason", "requests refused by the security handlers",
                NodeMonitor::getSecurityRefusals, node);
        counters("bftws.http.connections", "counter", "HTTP connection admission", NodeMonitor::getConnectionCounters,
                node);
        counters("bftws.tls", "counter", "TLS handshakes completed and certificates refused",
                NodeMonitor::getTlsCounters, node);
        node.certificates().forEach((name, cert) -> {
            if (registered.add("expiry " + name)) {
                double notAfter = cert.getNotAfter().toInstant().getEpochSecond();
                Gauge.builder("bftws.certificate.expiry", () -> notAfter).tag("certificate", name)
                        .description("when the certificate stops being valid").baseUnit("seconds")
                        .register(registry);
            }
        });
        ReplicaMonitor r = replica.get();
        if (r != null) {
            if (registered.add("replica")) {
                Supplier<ReplicaMonitor> live = replica;
                Gauge.builder("bftws.replica.view", live, m -> m.get().getView()).tag("group", r.getGroup())
                        .description("the replica's current view").register(registry);
                Gauge.builder("bftws.replica.stable.checkpoint", live, m -> m.get().getStableCheckpoint())
                        .tag("group", r.getGroup()).description("sequence number of the stable checkpoint")
                        .register(registry);
                Gauge.builder("bftws.replica.executing", live, m -> m.get().isExecuting() ? 1 : 0)
                        .tag("group", r.getGroup()).description("1 while the replica executes, 0 once it halted")
                        .register(registry);
                FunctionCounter.builder("bftws.replica.requests.executed", live, m -> m.get().getRequestsExecuted())
                        .tag("group", r.getGroup()).description("requests executed").register(registry);
                FunctionCounter.builder("bftws.replica.view.changes.started", live,
                        m -> m.get().getViewChangesStarted()).tag("group", r.getGroup())
                        .description("view changes this replica started").register(registry);
            }
            counters("bftws.replica", "counter", "the replica's ordering counters", ReplicaMonitor::getCounters, r);
            counters("bftws.replica.pbft.drops", "reason", "PBFT messages dropped", ReplicaMXBean::getPbftDrops, r);
        }
        return registry.scrape();
    }

    /** One metric for a map of counters: an entry not seen before becomes a series with {@code label}=its key. */
    private <T> void counters(String name, String label, String description, Function<T, Map<String, Long>> map,
                              T source) {
        for (String key : map.apply(source).keySet()) {
            if (registered.add(name + "\u0000" + key)) {
                FunctionCounter.builder(name, source, s -> map.apply(s).getOrDefault(key, 0L))
                        .tag(label, key).description(description).register(registry);
            }
        }
    }
}
