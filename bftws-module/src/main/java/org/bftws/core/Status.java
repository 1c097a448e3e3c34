package org.bftws.core;

/**
 * Sent periodically to every node: where the sender stands. A node that sees a peer stuck behind it retransmits what
 * the peer lacks; this is how the protocol survives lost messages and restarted nodes.
 *
 * @param view         the view the sender last entered (while {@code viewChanging}, it is moving beyond it)
 * @param lastExecuted the last sequence number the sender executed (or, on an agreement-only node, committed in
 *                     order)
 */
public record Status(int view, boolean viewChanging, long stableSeq, long lastExecuted, int sender) implements Message {
}
