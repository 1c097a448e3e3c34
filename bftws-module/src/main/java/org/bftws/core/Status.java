package org.bftws.core;

import java.util.Set;
import java.util.TreeSet;

/**
 * Sent periodically to every node: where the sender stands. A node that sees a peer stuck behind it retransmits what
 * the peer lacks; this is how the protocol survives lost messages and restarted nodes.
 *
 * @param view            the view the sender last entered (while {@code viewChanging}, it is moving beyond it)
 * @param lastExecuted    the last sequence number the sender executed (or, on an agreement-only node, committed in
 *                        order)
 * @param targetView      the view the sender is changing to; {@code view} when it is not changing views
 * @param viewChangesFrom the nodes whose view-change for {@code targetView} (or a later view) the sender holds. As in
 *                        Castro and Liskov's status messages, this lets a peer resend its view-change only to nodes
 *                        that lack it: a view-change carries every prepared certificate above the stable checkpoint
 *                        and is the largest message of the protocol
 */
public record Status(int view, boolean viewChanging, long stableSeq, long lastExecuted, int sender, int targetView,
                     Set<Integer> viewChangesFrom) implements Message {

    public Status {
        if (viewChanging ? targetView <= view : targetView != view) {
            throw new IllegalArgumentException("target view " + targetView + " with view " + view
                    + (viewChanging ? " while changing views" : " outside a view change"));
        }
        viewChangesFrom = Set.copyOf(new TreeSet<>(viewChangesFrom));
    }

    /** The status of a node that is not changing views. */
    public Status(int view, long stableSeq, long lastExecuted, int sender) {
        this(view, false, stableSeq, lastExecuted, sender, view, Set.of());
    }

    /** Whether the sender holds {@code node}'s view-change for the view it is changing to. */
    public boolean holdsViewChangeOf(int node) {
        return viewChanging && viewChangesFrom.contains(node);
    }
}
