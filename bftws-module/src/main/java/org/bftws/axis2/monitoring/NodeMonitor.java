package org.bftws.axis2.monitoring;

import org.bftws.monitoring.NodeMXBean;
import java.util.Map;
import java.util.TreeMap;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.rm.RmCounters;
import org.bftws.security.RefusalCounter;

/** {@link NodeMXBean} read live from a node's RM layer and security runtime. */
public final class NodeMonitor implements NodeMXBean {

    private final String party;
    private final BftwsNode node;
    private final RefusalCounter refusals;
    private final HttpAdmissionCounters connections;
    private volatile java.util.function.Supplier<java.util.Optional<org.bftws.tls.DeploymentTls>> tls;

    public NodeMonitor(String party, BftwsNode node, RefusalCounter refusals, HttpAdmissionCounters connections) {
        this.party = party == null ? "" : party;
        this.node = node;
        this.refusals = refusals;
        this.connections = connections;
    }

    @Override
    public String getParty() {
        return party;
    }

    @Override
    public int getPendingRequests() {
        return node.destination().pending().size();
    }

    @Override
    public int getHeldExchanges() {
        return node.destination().heldExchanges();
    }

    @Override
    public long getDeliveredRequests() {
        return node.destination().deliveredCount();
    }

    @Override
    public Map<String, Long> getRmCounters() {
        return rmCounters(node.counters());
    }

    @Override
    public Map<String, Long> getSecurityRefusals() {
        return securityRefusals(refusals);
    }

    /** With replicas.xml's {@code <tls>}: the party's TLS, whose figures join the connection counters. */
    void watchTls(java.util.function.Supplier<java.util.Optional<org.bftws.tls.DeploymentTls>> tls) {
        this.tls = tls;
    }

    /**
     * The HTTP server's connection counters and, with {@code <tls>}, the party's TLS figures over every link (its
     * server, its calls, the binary channel): handshakes, certificates refused, days its own certificate has left.
     */
    @Override
    public Map<String, Long> getConnectionCounters() {
        Map<String, Long> m = connections.asMap();
        java.util.Optional<org.bftws.tls.DeploymentTls> party = java.util.Optional.empty();
        try {
            party = tls == null ? party : tls.get();
        } catch (RuntimeException e) {
            // no keys to read: the figures are left out, the status page still answers
        }
        party.ifPresent(t -> {
            m.put("TLS handshakes, every link", t.handshakes());
            m.put("TLS certificates refused", t.refusals());
            m.put("TLS own certificate days left", java.time.Duration.between(java.time.Instant.now(),
                    t.ownCertificate().getNotAfter().toInstant()).toDays());
        });
        return m;
    }

    @Override
    public int getQueuedConnections() {
        return connections.queuedConnections();
    }

    @Override
    public long getOldestQueuedConnectionMillis() {
        return connections.oldestQueuedMillis();
    }

    @Override
    public long getHeapUsedBytes() {
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Override
    public long getHeapMaxBytes() {
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
    }

    static Map<String, Long> rmCounters(RmCounters c) {
        Map<String, Long> m = new TreeMap<>();
        m.put("sequences created", c.sequencesCreated.get());
        m.put("control sequences created", c.controlSequencesCreated.get());
        m.put("sequences terminated", c.sequencesTerminated.get());
        m.put("messages accepted", c.accepted.get());
        m.put("messages refused", c.refused.get());
        m.put("refused: not the sequence's owner", c.notSequenceOwner.get());
        m.put("sequences refused: the party holds its maximum", c.sequencesOverPartyLimit.get());
        m.put("held exchanges let go: the party holds its maximum", c.heldExchangesOverPartyLimit.get());
        m.put("requests refused: not a SOAP envelope", c.malformedRequests.get());
        m.put("requests refused: too large", c.oversizedRequests.get());
        m.put("duplicates answered from the reply cache", c.duplicatesAnsweredFromCache.get());
        m.put("duplicates joined to their pending request", c.duplicatesJoinedPending.get());
        m.put("hold timeouts", c.holdTimeouts.get());
        m.put("held exchanges let go", c.heldExchangesLetGo.get());
        m.put("retransmissions sent as a client", c.retransmissions.get());
        m.put("retry-later faults received as a client", c.retryLaterReceived.get());
        return m;
    }

    static Map<String, Long> securityRefusals(RefusalCounter refusals) {
        return refusals.asMap();
    }
}
