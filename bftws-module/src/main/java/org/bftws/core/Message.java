package org.bftws.core;

/**
 * A message between nodes of a group. The core receives only authenticated messages: the adapter has checked that
 * {@link #sender()} sent (or, for a relayed message, signed) it.
 *
 * <p>{@link #transferable()} says whether a third node must be able to verify the message: it appears inside another
 * message as proof (pre-prepares and prepares in prepared certificates, checkpoints in stable-checkpoint proofs,
 * view-changes in new-views) or is relayed to nodes it was not sent to. Adapters sign those, with a signature that
 * travels with the message wherever it is embedded; a MAC (which only its receiver can check) suffices for the rest.
 */
public sealed interface Message permits PrePrepare, Prepare, Commit, Checkpoint, ViewChange, NewView, FetchRequests,
        ForwardedRequests, FetchState, StateSnapshot, Status, Reply, CommittedBatch, FetchCommitted, Claim, SignedClaim {

    int sender();

    default boolean transferable() {
        return false;
    }
}
