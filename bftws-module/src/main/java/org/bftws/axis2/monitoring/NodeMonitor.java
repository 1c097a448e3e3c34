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
    private final org.bftws.axis2.security.SecurityRuntime security;

    public NodeMonitor(String party, BftwsNode node, RefusalCounter refusals, HttpAdmissionCounters connections,
                       org.bftws.axis2.security.SecurityRuntime security) {
        this.party = party == null ? "" : party;
        this.node = node;
        this.refusals = refusals;
        this.connections = connections;
        this.security = security;
    }

    @Override
    public Map<String, String> getCertificateExpiry() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        certificates().forEach((name, cert) -> m.put(name, cert.getNotAfter().toInstant().toString()));
        return m;
    }

    /** The party's certificates by name (see {@link #getCertificateExpiry}). */
    Map<String, java.security.cert.X509Certificate> certificates() {
        return security == null ? Map.of() : security.certificates();
    }

    @Override
    public Map<String, Long> getTlsCounters() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        if (security != null) {
            security.tls().ifPresent(t -> {
                m.put("handshakes", t.handshakes());
                m.put("refused", t.refusals());
            });
        }
        return m;
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

    @Override
    public Map<String, Long> getConnectionCounters() {
        return connections.asMap();
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
