package org.bftws.core;

import java.util.List;

/**
 * The primary of {@code view} starts it: the 2f+1 view-changes it is built on, named by sender and digest (the
 * receivers hold them: every node sends its view-change to all; see {@link ViewChangeRef}), and the pre-prepares
 * they imply, one for every sequence number between the highest stable checkpoint and the highest prepared one (null
 * batches for gaps).
 */
public record NewView(int view, List<ViewChangeRef> viewChanges, List<PrePrepare> prePrepares, int sender)
        implements Message {

    public NewView {
        viewChanges = List.copyOf(viewChanges);
        prePrepares = List.copyOf(prePrepares);
    }

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "NewView(v" + view + " " + prePrepares.size() + " re-proposed from " + sender + ")";
    }
}
