package org.bftws.core;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The requests ordered under one sequence number, in execution order, named by digest. The empty batch is the null
 * request a new primary proposes for a gap (PBFT's null request): it executes nothing and advances the sequence.
 */
public record Batch(List<RequestRef> requests) {

    public static final Batch NULL = new Batch(List.of());

    public Batch {
        requests = List.copyOf(requests);
    }

    public boolean isNull() {
        return requests.isEmpty();
    }

    public int size() {
        return requests.size();
    }

    public Digest digest() {
        Digest.Builder b = Digest.builder().add(requests.size());
        for (RequestRef r : requests) {
            b.add(r.id().client()).add(r.id().number()).add(r.digest());
        }
        return b.build();
    }

    /** A batch that names one request id twice is malformed: a correct primary never builds one. */
    public boolean hasDuplicateIds() {
        Set<RequestId> seen = new HashSet<>();
        for (RequestRef r : requests) {
            if (!seen.add(r.id())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return isNull() ? "null-batch" : requests.toString();
    }
}
