package org.bftws.core;

import java.util.List;

/**
 * Configuration III: an agreement node tells the execution nodes that {@code batch} committed at {@code seq}, with
 * the request bodies and the view it committed in. An execution node executes it after f+1 agreement nodes sent the same batch for the same seq.
 */
public record CommittedBatch(int view, long seq, Batch batch, List<Request> requests, int sender) implements Message {

    public CommittedBatch {
        requests = List.copyOf(requests);
    }

    @Override
    public String toString() {
        return "CommittedBatch(n" + seq + " " + batch.digest() + " from " + sender + ")";
    }
}
