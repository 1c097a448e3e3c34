package org.bftws.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/** The slots between the stable checkpoint and the high watermark. */
final class OrderingLog {

    private final TreeMap<Long, Slot> slots = new TreeMap<>();

    Slot slot(long seq) {
        return slots.computeIfAbsent(seq, Slot::new);
    }

    Slot get(long seq) {
        return slots.get(seq);
    }

    Collection<Slot> above(long seq) {
        return slots.tailMap(seq, false).values();
    }

    /** The request digests that a slot above {@code seq} names (its pre-prepares, committed batch, certificate). */
    Set<Digest> namedAbove(long seq) {
        Set<Digest> named = new HashSet<>();
        for (Slot s : above(seq)) {
            List<Batch> batches = new ArrayList<>(2);
            if (s.prePrepare != null) {
                batches.add(s.prePrepare.batch());
            }
            s.otherPrePrepares.values().forEach(pp -> batches.add(pp.batch()));
            if (s.committedBatch != null) {
                batches.add(s.committedBatch);
            }
            if (s.certificate != null) {
                batches.add(s.certificate.prePrepare().batch());
            }
            for (Batch b : batches) {
                b.requests().forEach(ref -> named.add(ref.digest()));
            }
        }
        return named;
    }

    Collection<Slot> range(long afterSeq, long toSeq) {
        return afterSeq >= toSeq ? java.util.List.of() : slots.subMap(afterSeq, false, toSeq, true).values();
    }

    /** Garbage collection below a stable checkpoint: those slots are settled and covered by its proof. */
    void discardUpTo(long seq) {
        slots.headMap(seq, true).clear();
    }

    /** A new view re-proposes up to {@code seq}; slots above that did not commit start from nothing. */
    void discardUncommittedAbove(long seq) {
        slots.tailMap(seq, false).values().removeIf(s -> !s.committed);
    }

    /** The prepared certificates a view-change carries: the highest-view one for each slot above the checkpoint. */
    List<PreparedCertificate> certificatesAbove(long stableSeq) {
        List<PreparedCertificate> certs = new ArrayList<>();
        for (Slot s : above(stableSeq)) {
            if (s.certificate != null) {
                certs.add(s.certificate);
            }
        }
        return certs;
    }

    /** Digests of every request a live slot names: their bodies must stay. */
    Set<Digest> namedRequests() {
        Set<Digest> named = new HashSet<>();
        for (Slot s : slots.values()) {
            if (s.prePrepare != null) {
                s.prePrepare.batch().requests().forEach(r -> named.add(r.digest()));
            }
            if (s.committedBatch != null) {
                s.committedBatch.requests().forEach(r -> named.add(r.digest()));
            }
            if (s.certificate != null) {
                s.certificate.prePrepare().batch().requests().forEach(r -> named.add(r.digest()));
            }
        }
        return named;
    }

    long highestSeq() {
        return slots.isEmpty() ? 0 : slots.lastKey();
    }

    int size() {
        return slots.size();
    }

    /**
     * The tick the oldest pre-prepare of the current view that this node accepted above {@code lastCommitted} and that
     * has not committed here was accepted, if any. PBFT's backup waits for every request it knows until it executes;
     * a request of such a batch may not count as waiting on its own (its client's earlier request sits in the batch,
     * or it is gated and already proposed), and without this a backup whose slot lacks one commit waits for ever while
     * the others move to the next view (simulator seed 41873, 2026-11-27).
     */
    java.util.OptionalLong oldestUncommitted(long lastCommitted, int view) {
        for (Slot s : above(lastCommitted)) {
            if (!s.committed && s.view == view && s.prePrepare != null && s.acceptedAt >= 0) {
                return java.util.OptionalLong.of(s.acceptedAt);
            }
        }
        return java.util.OptionalLong.empty();
    }
}
