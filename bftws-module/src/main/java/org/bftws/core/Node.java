package org.bftws.core;

import java.util.List;

/**
 * One node of a replication group as a deterministic state machine: every input returns the outputs it causes, and
 * the same inputs in the same order always give the same outputs. Not thread-safe: the adapter serialises calls.
 */
public interface Node {

    /** A client's request, authenticated as coming from {@code request.id().client()}. */
    List<Output> onRequest(Request request);

    /** A message authenticated as sent (or signed) by {@code message.sender()}. */
    List<Output> onMessage(Message message);

    /**
     * This node's wall-clock reading in milliseconds (the adapter reports it before ticks; the core has no clock of
     * its own). A primary stamps its proposals with it, and a backup prepares a new proposal only if the primary's
     * time lies within {@link ReplicaOptions#clockBound()} of it; execution uses the agreed time, never this.
     */
    default List<Output> onClock(long wallMillis) {
        return List.of();
    }

    /** One tick of the node's clock; every timer in {@link ReplicaOptions} counts these. */
    List<Output> onTick();

    /** The results of an {@link Output.Execute}, one per request, in its order. */
    List<Output> onExecuted(long seq, List<byte[]> results);

    /** The application state {@code get_state} returned for a {@link Output.TakeCheckpoint}. */
    List<Output> onCheckpointState(long seq, byte[] applicationState);

    /** {@code set_state} finished for an {@link Output.InstallState}. */
    List<Output> onStateInstalled(long seq);

    /**
     * The service could not carry out the {@link Output.InstallState}, {@link Output.TakeCheckpoint} or
     * {@link Output.Execute} at {@code seq} (its set_state refused the state, its get_state failed, a batch could not
     * be delivered): its state is unknown. The node executes nothing more
     * until it has installed a stable checkpoint at or above {@code seq}, which it fetches as a node that fell behind
     * does: from one executor after another (each answers with its newest stable checkpoint), waiting longer after
     * each attempt, until an installation succeeds.
     */
    List<Output> onExecutionFailed(long seq);

    /**
     * Restart from what the node persisted ({@link Output.Persist}); call once, on a fresh node, before anything
     * else. An empty state is a first start.
     */
    List<Output> recover(DurableState state);

    int id();

    int view();

    /** The last sequence number this node executed (agreement-only nodes: committed in order). */
    long lastExecuted();

    long stableCheckpoint();

    /** Live entries of this node's last-reply table (one per client sequence that has not ended); -1 without one. */
    default int replyEntries() {
        return -1;
    }

    /**
     * Bytes of this node's encoded stable checkpoint (application state and last-reply table, what a state transfer
     * sends); -1 when it executes nothing or does not hold that checkpoint's state.
     */
    default long stableCheckpointBytes() {
        return -1;
    }

    /** Creates the node that {@code membership} gives {@code id}: an agreement replica or an execution node. */
    static Node create(int id, Membership membership, ReplicaOptions options) {
        return create(id, membership, options, client -> false);
    }

    /**
     * As {@link #create(int, Membership, ReplicaOptions)}, with the clients whose requests an agreement node votes
     * for only after its own admission (a caller group's virtual sequences, paper 3.4; see docs/protocol.md).
     */
    static Node create(int id, Membership membership, ReplicaOptions options,
                       java.util.function.Predicate<String> gatedClient) {
        return create(id, membership, options, gatedClient, SequenceRules.NONE);
    }

    /**
     * As {@link #create(int, Membership, ReplicaOptions, java.util.function.Predicate)}, with the rules that end
     * client sequences ({@link SequenceRules}: which requests terminate their sequence).
     */
    static Node create(int id, Membership membership, ReplicaOptions options,
                       java.util.function.Predicate<String> gatedClient, SequenceRules rules) {
        return membership.role(id).orders() ? new Replica(id, membership, options, gatedClient, rules)
                : new ExecutionNode(id, membership, options, rules);
    }
}
