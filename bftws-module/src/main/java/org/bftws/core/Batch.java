package org.bftws.core;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The requests ordered under one sequence number, in execution order, named by digest, with the primary's clock
 * reading when it proposed them ({@code time}, milliseconds; part of the digest, so prepares, certificates and
 * new-views agree on it). Executing the batch advances the agreed time to at least {@code time}, which expires idle
 * client sequences (docs/protocol.md, "Agreed time"). The empty batch is the null request a new primary proposes
 * for a gap (PBFT's null request): it executes nothing, advances the sequence, and has time 0 (it moves no clock).
 */
public record Batch(List<RequestRef> requests, long time) {

    public static final Batch NULL = new Batch(List.of(), 0);

    public Batch {
        requests = List.copyOf(requests);
    }

    /** A batch without a time (0): the agreed time does not move when it executes. */
    public Batch(List<RequestRef> requests) {
        this(requests, 0);
    }

    public boolean isNull() {
        return requests.isEmpty();
    }

    public int size() {
        return requests.size();
    }

    public Digest digest() {
        Digest.Builder b = Digest.builder().add(time).add(requests.size());
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
        return isNull() ? "null-batch" : requests + (time != 0 ? "@" + time : "");
    }
}
