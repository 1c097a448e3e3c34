package org.bftws.core;

import java.util.List;

/**
 * The primary of {@code view} starts it: 2f+1 view-changes as proof and the pre-prepares they imply, one for every
 * sequence number between the highest stable checkpoint and the highest prepared one (null batches for gaps).
 */
public record NewView(int view, List<ViewChange> viewChanges, List<PrePrepare> prePrepares, int sender) implements Message {

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
