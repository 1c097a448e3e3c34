package org.bftws.axis2.delivery;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Accepted requests not yet delivered, by (sequence, message number), so retransmitted copies can join them. */
public final class PendingRequests {

    private final Map<String, PendingRequest> byKey = new ConcurrentHashMap<>();

    public void add(PendingRequest r) {
        byKey.put(r.key(), r);
    }

    /**
     * Adds {@code r} in place of any request kept under its key, whose waiting exchanges join {@code r}: a copy that
     * arrived while {@code r} was being accepted (its sequence already said "pending", the request was not here yet)
     * waits for a request of its own, which must not be lost when {@code r} takes the key.
     */
    public void addTakingOver(PendingRequest r) {
        PendingRequest earlier = byKey.put(r.key(), r);
        if (earlier != null && earlier != r) {
            earlier.close().forEach(r::addExchange); // r is new, so open to them
        }
    }

    /**
     * {@code r}, unless a request is kept under its key already: then that one, which {@code r} must not replace (a
     * copy that found nothing pending a moment ago may race the acceptance of the request it copies, whose waiting
     * exchanges would be lost with it).
     */
    public PendingRequest addIfAbsent(PendingRequest r) {
        PendingRequest earlier = byKey.putIfAbsent(r.key(), r);
        return earlier != null ? earlier : r;
    }

    public Optional<PendingRequest> find(String sequenceId, long messageNumber) {
        return Optional.ofNullable(byKey.get(PendingRequest.key(sequenceId, messageNumber)));
    }

    public void remove(PendingRequest r) {
        byKey.remove(r.key(), r);
    }

    /** Drops the sequence's requests; returns them so their exchanges can be answered. */
    public java.util.List<PendingRequest> removeSequence(String sequenceId) {
        java.util.List<PendingRequest> out = new java.util.ArrayList<>();
        byKey.values().removeIf(r -> {
            if (r.sequenceId().equals(sequenceId)) {
                out.add(r);
                return true;
            }
            return false;
        });
        return out;
    }

    public int size() {
        return byKey.size();
    }
}
