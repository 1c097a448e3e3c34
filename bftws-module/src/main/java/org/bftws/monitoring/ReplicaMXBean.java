package org.bftws.monitoring;

import java.util.Map;

/**
 * What an operator reads about one replica of a BFT group, registered as
 * {@code org.bftws:type=Replica,group=<service>,name=<party>} while the replica role runs. Every figure is read
 * from what the replica keeps anyway (volatile values and counters), without the ordering lock: reading them does
 * not slow the group down. Figures that change together (view and last executed, say) are read one by one, so a read
 * during a view change may see the new view with the old primary's last execution.
 */
public interface ReplicaMXBean {

    /** The replicated service (the group's name in replicas.xml). */
    String getGroup();

    /** This node's name in replicas.xml. */
    String getParty();

    /** This node's id in the PBFT core (agreement nodes first). */
    int getNodeId();

    /** agree-execute, agree (orders only) or execute (Configuration III's execution nodes). */
    String getRole();

    /** The view this replica is in (while a view change runs: the view it moves to). */
    int getView();

    /** The name of the current view's primary. */
    String getPrimary();

    /** Whether this node is the current view's primary. */
    boolean isSelfPrimary();

    /** The last sequence number whose batch this replica executed (or, on an agreement-only node, passed). */
    long getLastExecuted();

    /**
     * Whether this replica executes: false while its service's state is unknown because it could not install a state
     * (its set_state refused one), give one (its get_state failed) or run a batch; it then executes nothing and keeps
     * fetching a stable checkpoint from the others until one installs. Always true on a node that only orders.
     */
    boolean isExecuting();

    /**
     * Why this replica executes nothing: what failed, at which sequence number and since when (ISO-8601, UTC); null
     * while it executes.
     */
    String getNotExecuting();

    /** The sequence number of the last stable checkpoint (the log is garbage-collected up to it). */
    long getStableCheckpoint();

    /**
     * Live entries of the last-reply table: client sequences not yet ended (terminated, or expired after the
     * group's {@code sequenceIdleLimit}); -1 on a node that executes nothing. Each costs memory and checkpoint bytes.
     * Read under the ordering lock (briefly: a size), unlike the other figures.
     */
    int getReplyEntries();

    /**
     * Bytes of the stable checkpoint this replica holds (application state and last-reply table: what a state
     * transfer sends and the data directory keeps); -1 when it holds none yet. Read under the ordering lock.
     */
    long getStableCheckpointBytes();

    /** Batches committed (ordered) at this replica. */
    long getBatchesOrdered();

    /** Client requests this node executed (or, agreement-only, ordered and passed on). */
    long getRequestsExecuted();

    /** Requests accepted from clients and not yet answered. */
    int getPendingRequests();

    /** Outputs (executions, checkpoints, state installs) waiting for the invoker's thread. */
    int getExecutionQueue();

    /** View changes this replica started (it suspected the primary, or joined f+1 others who did). */
    long getViewChangesStarted();

    /** New views this replica entered. */
    long getViewsInstalled();

    /** Stable checkpoints installed by state transfer (this replica had fallen behind). */
    long getStateTransfers();

    /** Checkpoints at which this replica's state differed from the one the group agreed on (non-determinism). */
    long getDivergedCheckpoints();

    /**
     * Retransmissions seen and sent: client retransmissions answered from the reply cache or joined to their pending
     * request, WS-RM messages this node re-sent as a client, PBFT frames the replica channel re-sent, and duplicate
     * PBFT messages it did not queue again.
     */
    Map<String, Long> getRetransmissions();

    /** Messages the security handlers refused, per reason (every reason, 0 included). */
    Map<String, Long> getSecurityRefusals();

    /**
     * PBFT messages dropped before or by the core, per reason: refused proofs, malformed bundles, unknown senders,
     * frames the replica channel refused, inputs the core dropped.
     */
    Map<String, Long> getPbftDrops();

    /** Checkpoint, state transfer and view change timings: {@code KIND=COUNT/MEAN/P50/MAX/LAST} in milliseconds. */
    String getTimings();

    /** Every counter the replica keeps (ordering, replica channel, signature cache), by name. */
    Map<String, Long> getCounters();
}
