package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one node knows about one sequence number: the pre-prepare and votes of the current view, and what outlives a
 * view: whether it committed (then the batch is final) and the highest-view prepared certificate, which a view
 * change carries.
 */
final class Slot {

    final long seq;
    int view = -1;
    PrePrepare prePrepare;
    /** Other pre-prepares the primary sent for this slot in this view (it equivocated); kept to learn decisions. */
    final Map<Digest, PrePrepare> otherPrePrepares = new TreeMap<>();
    final Map<Integer, Prepare> prepares = new TreeMap<>();
    final Map<Integer, Commit> commits = new TreeMap<>();
    boolean prepareSent;
    boolean commitSent;
    boolean prepared;
    boolean committed;
    Batch committedBatch;
    PreparedCertificate certificate;
    long bodiesAskedAt = -1;
    /** When a backup first missed a body of the pre-prepared batch (it waits a little for the client's own copy). */
    long bodiesMissingSince = -1;
    /**
     * The pre-prepare is a new view's re-proposal: it rests on a prepared certificate, so f+1 correct nodes (or a
     * correct primary) admitted its requests; this node may prepare it without its own admission (LocalAdmissions).
     */
    boolean reproposal;
    /**
     * The primary's time in this slot's pre-prepare lay outside the clock bound of this node's clock when it arrived:
     * this backup does not prepare it (it can still learn that 2f+1 others committed it).
     */
    boolean clockRefused;
    /** When this backup last asked for copies of gated requests it has bodies of but did not admit (-1: never). */
    long admissionAskedAt = -1;
    /**
     * When this node accepted this view's pre-prepare (-1: not yet in this view): an accepted batch that does not
     * commit counts against the primary from then on, like a request that waits ({@link OrderingLog#oldestUncommitted}).
     */
    long acceptedAt = -1;
    /** When this node first had a pre-prepare for this slot (-1: not yet): how long ordering takes, for pacing. */
    long prePreparedAt = -1;

    Slot(long seq) {
        this.seq = seq;
    }

    /** This node has a pre-prepare for the slot at {@code now}; the first time counts (ordering time, pacing). */
    void notePrePrepared(long now) {
        if (acceptedAt < 0) {
            acceptedAt = now;
        }
        if (prePreparedAt < 0) {
            prePreparedAt = now;
        }
    }

    /** Votes belong to one view: entering another one starts them afresh. */
    void enterView(int v) {
        if (view == v) {
            return;
        }
        view = v;
        prePrepare = null;
        otherPrePrepares.clear();
        prepares.clear();
        commits.clear();
        prepareSent = false;
        commitSent = false;
        prepared = false;
        bodiesAskedAt = -1;
        bodiesMissingSince = -1;
        reproposal = false;
        clockRefused = false;
        admissionAskedAt = -1;
        acceptedAt = -1;
    }

    /** Prepares that match the pre-prepare; the primary never prepares, so these are from distinct backups. */
    List<Prepare> matchingPrepares() {
        List<Prepare> matching = new ArrayList<>();
        if (prePrepare != null) {
            for (Prepare p : prepares.values()) {
                if (p.digest().equals(prePrepare.digest())) {
                    matching.add(p);
                }
            }
        }
        return matching;
    }

    int commitsFor(Digest digest) {
        int count = 0;
        for (Commit c : commits.values()) {
            if (c.digest().equals(digest)) {
                count++;
            }
        }
        return count;
    }

    /** The batch to look for when fetching bodies: the decided one once committed, else the accepted proposal. */
    Batch wantedBatch() {
        return committed ? committedBatch : prePrepare == null ? null : prePrepare.batch();
    }

    @Override
    public String toString() {
        return "slot n" + seq + " v" + view + (prepared ? " prepared" : "") + (committed ? " committed" : "");
    }
}
