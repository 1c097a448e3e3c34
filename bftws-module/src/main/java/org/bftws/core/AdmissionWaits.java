package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The slots a backup holds the whole batch of but does not prepare yet, because a gated (nested) request in it has
 * not passed this node's own admission ({@link LocalAdmissions}); they prepare when the admission arrives, and
 * meanwhile ask again for the bodies they did not admit, so the adapter can recognise a relayed copy whose content
 * its gate admitted. Part of {@link NormalCase}.
 */
final class AdmissionWaits {

    private final Replica replica;
    private final NormalCase normal;
    /** Sequence numbers of the waiting slots. */
    private final TreeSet<Long> awaitingAdmission = new TreeSet<>();

    AdmissionWaits(Replica replica, NormalCase normal) {
        this.replica = replica;
        this.normal = normal;
    }

    /**
     * Whether this backup may vouch for the slot's batch with a prepare: every gated (nested) request in it passed
     * this node's own admission, or the batch is a new view's re-proposal (its prepared certificate shows correct
     * nodes checked it). A body the primary, or any node, relayed proves only that one caller replica signed it; the
     * slot waits for the gate (correct caller replicas send their copies to every replica) and, meanwhile, asks
     * again for the bodies it did not admit, so the adapter can match a relayed copy against what its gate admitted.
     */
    boolean admittedHere(Slot s) {
        if (s.reproposal || replica.admissions.notAdmitted(s.prePrepare.batch()).isEmpty()) {
            awaitingAdmission.remove(s.seq);
            return true;
        }
        if (awaitingAdmission.add(s.seq)) {
            s.admissionAskedAt = replica.now;
        }
        return false;
    }

    /**
     * The gate admitted {@code r} here: slots that waited for it prepare now; a slot naming another copy of the same
     * request (another caller replica's signature on it) asks for that copy again at once, which the adapter admits
     * when its content is what the gate admitted.
     */
    void admissionArrived(Request r) {
        for (long seq : new ArrayList<>(awaitingAdmission)) { // preparing may commit, execute and add slots
            Slot s = replica.log.get(seq);
            if (s == null || s.prepareSent || s.committed || s.prePrepare == null || s.view != replica.view()) {
                awaitingAdmission.remove(seq);
                continue;
            }
            List<Digest> notAdmitted = replica.admissions.notAdmitted(s.prePrepare.batch());
            if (notAdmitted.isEmpty()) {
                awaitingAdmission.remove(seq);
                normal.sendPrepareIfReady(s);
                normal.checkPrepared(s);
            } else if (s.prePrepare.batch().requests().stream()
                    .anyMatch(ref -> ref.id().equals(r.id()) && notAdmitted.contains(ref.digest()))) {
                replica.out.toAgreementNodes(new FetchRequests(notAdmitted, replica.id()));
                s.admissionAskedAt = replica.now;
            }
        }
    }

    /** Asks again, every fetch timeout, for gated bodies that slots hold but this node did not admit. */
    void retryFetches() {
        for (long seq : new ArrayList<>(awaitingAdmission)) { // preparing may commit, execute and add slots
            Slot s = replica.log.get(seq);
            if (s == null || s.prepareSent || s.committed || s.prePrepare == null || s.view != replica.view()) {
                awaitingAdmission.remove(seq);
            } else if (replica.now - s.admissionAskedAt >= replica.options.fetchTimeout()) {
                List<Digest> notAdmitted = replica.admissions.notAdmitted(s.prePrepare.batch());
                if (notAdmitted.isEmpty()) {
                    awaitingAdmission.remove(seq);
                    normal.sendPrepareIfReady(s);
                    normal.checkPrepared(s);
                } else {
                    replica.out.toAgreementNodes(new FetchRequests(notAdmitted, replica.id()));
                    s.admissionAskedAt = replica.now;
                }
            }
        }
    }
}
