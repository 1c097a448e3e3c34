package org.bftws.voting;

import java.util.concurrent.TimeUnit;

/**
 * Decides which of the nodes' replies to one request the application gets. A direct (non-replicated) endpoint takes
 * the single node's reply ({@link FirstReply}); a group endpoint votes ({@link VotingReplyCollector}: each reply
 * authenticated on its own, f+1 identical replies from distinct replicas by default). Thread-safe: one transmission
 * thread per node offers replies.
 */
public interface ReplyCollector {

    /** A node's final reply to the request (an answer or a fault, not a transport failure). */
    void offer(NodeReply reply);

    /** The node gave up: retransmission limit reached without a final reply. */
    void failed(java.net.URI node, String why);

    /** Blocks until a reply is decided, or every node answered or failed, or the timeout; null when undecided. */
    NodeReply await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * True once the outcome is known (a reply decided, or none can be any more): further retransmissions to nodes
     * that have not answered cannot change it. Collectors that never settle early keep the default.
     */
    default boolean settled() {
        return false;
    }

    /**
     * Whether {@code node}'s reply so far is tentative (executed before its batch committed) and the vote still open:
     * then the node is asked again, and its answer once the batch committed replaces the tentative one.
     */
    default boolean wantsMoreFrom(java.net.URI node) {
        return false;
    }

    /** Waits up to {@code millis} for the outcome to be known; true if it is. */
    default boolean awaitSettled(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return settled();
    }

    /** Why no reply was decided, for the client's error message. */
    String whyUndecided();
}
