package org.bftws.axis2.client;

import java.util.concurrent.TimeUnit;

/**
 * Decides which of the nodes' replies to one request the application gets. WS-RM-only mode takes the single node's
 * reply ({@link FirstReply}); BFT mode needs f+1 identical replies from distinct replicas ({@link MatchingReplies},
 * which the client Voter may replace). Thread-safe: one transmission thread per node offers replies.
 */
public interface ReplyCollector {

    /** A node's final reply to the request (an answer or a fault, not a transport failure). */
    void offer(NodeReply reply);

    /** The node gave up: retransmission limit reached without a final reply. */
    void failed(java.net.URI node, String why);

    /** Blocks until a reply is decided, or every node answered or failed, or the timeout; null when undecided. */
    NodeReply await(long timeout, TimeUnit unit) throws InterruptedException;

    /** Why no reply was decided, for the client's error message. */
    String whyUndecided();
}
