package org.bftws.axis2.monitoring;

import org.bftws.monitoring.ReplicaMXBean;
import java.util.Map;
import java.util.TreeMap;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.ordering.BftReplica;
import org.bftws.security.RefusalCounter;

/**
 * {@link ReplicaMXBean} read live from a running replica. The core runs under the Total Order Manager's lock; none of
 * these reads takes it: view, last executed and stable checkpoint are the values the manager records after every
 * input, the counters are atomic.
 */
public final class ReplicaMonitor implements ReplicaMXBean {

    /** Counters of {@link BftReplica#counters()} that count PBFT messages dropped (see {@link #getPbftDrops()}). */
    private static boolean isDrop(String counter) {
        return counter.startsWith("PBFT messages refused") || counter.startsWith("PBFT bundles refused")
                || counter.startsWith("PBFT channel refused") || counter.equals("malformed PBFT bundles")
                || counter.equals("PBFT frames malformed") || counter.equals("PBFT messages from unknown senders")
                || counter.equals("PBFT messages too large for a frame") || counter.equals("dropped inputs");
    }

    private final BftwsNode node;
    private final BftReplica replica;
    private final RefusalCounter refusals;

    public ReplicaMonitor(BftwsNode node, BftReplica replica, RefusalCounter refusals) {
        this.node = node;
        this.replica = replica;
        this.refusals = refusals;
    }

    @Override
    public String getGroup() {
        return replica.service();
    }

    @Override
    public String getParty() {
        return replica.name();
    }

    @Override
    public int getNodeId() {
        return replica.id();
    }

    @Override
    public String getRole() {
        return replica.role().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    @Override
    public int getView() {
        return replica.manager().view();
    }

    @Override
    public String getPrimary() {
        return replica.primaryOf(getView());
    }

    @Override
    public boolean isSelfPrimary() {
        return getPrimary().equals(getParty());
    }

    @Override
    public long getLastExecuted() {
        return replica.manager().lastExecuted();
    }

    @Override
    public boolean isExecuting() {
        return replica.manager().halted() == null;
    }

    @Override
    public String getNotExecuting() {
        org.bftws.ordering.TotalOrderManager.Halt h = replica.manager().halted();
        return h == null ? null : h.reason() + " (at " + h.seq() + ", since "
                + java.time.Instant.ofEpochMilli(h.sinceMillis()) + "); fetching a stable checkpoint to install";
    }

    @Override
    public long getStableCheckpoint() {
        return replica.manager().stableCheckpoint();
    }

    @Override
    public int getReplyEntries() {
        return replica.manager().replyEntries();
    }

    @Override
    public long getStableCheckpointBytes() {
        return replica.manager().stableCheckpointBytes();
    }

    @Override
    public long getBatchesOrdered() {
        return managerCounter("committed batches");
    }

    @Override
    public long getRequestsExecuted() {
        return replica.invoker().executedRequests();
    }

    @Override
    public int getPendingRequests() {
        return node.destination().pending().size();
    }

    @Override
    public int getExecutionQueue() {
        return replica.invoker().queued();
    }

    @Override
    public long getViewChangesStarted() {
        return managerCounter("view changes started");
    }

    @Override
    public long getViewsInstalled() {
        return managerCounter("views installed");
    }

    @Override
    public long getStateTransfers() {
        return managerCounter("state transfers");
    }

    @Override
    public long getDivergedCheckpoints() {
        return managerCounter("diverged checkpoints");
    }

    @Override
    public Map<String, Long> getRetransmissions() {
        Map<String, Long> all = replica.counters();
        Map<String, Long> m = new TreeMap<>();
        m.put("client retransmissions answered from the reply cache",
                node.counters().duplicatesAnsweredFromCache.get());
        m.put("client retransmissions joined to their pending request", node.counters().duplicatesJoinedPending.get());
        m.put("WS-RM retransmissions sent as a client", node.counters().retransmissions.get());
        m.put("PBFT frames retransmitted", all.getOrDefault("PBFT channel frames retransmitted", 0L));
        m.put("PBFT duplicates not queued", all.getOrDefault("PBFT duplicates not queued", 0L));
        return m;
    }

    @Override
    public Map<String, Long> getSecurityRefusals() {
        return NodeMonitor.securityRefusals(refusals);
    }

    @Override
    public Map<String, Long> getPbftDrops() {
        Map<String, Long> m = new TreeMap<>();
        replica.counters().forEach((name, n) -> {
            if (isDrop(name)) {
                m.put(name, n);
            }
        });
        m.putIfAbsent("dropped inputs", 0L);
        return m;
    }

    @Override
    public String getTimings() {
        return replica.measurements().describe();
    }

    @Override
    public Map<String, Long> getCounters() {
        return replica.counters();
    }

    /** The Total Order Manager's counter {@code name}; 0 until it first counts. */
    private long managerCounter(String name) {
        return replica.manager().counters().getOrDefault(name, 0L);
    }

    /** The replica this monitor reads. */
    public BftReplica replica() {
        return replica;
    }
}
