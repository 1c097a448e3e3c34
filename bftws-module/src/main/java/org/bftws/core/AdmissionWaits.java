package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The slots a backup holds the whole batch of but does not prepare yet, because a gated request in it is neither
 * admitted here nor vouched for by f+1 nodes ({@link LocalAdmissions}, {@link RequestClaims}); they prepare when an
 * admission, a claim or a prepare arrives that settles it, and meanwhile ask again, every fetch timeout, for the
 * requests they do not vouch for: the answer brings the bodies (a relayed nested copy whose content the gate admitted,
 * or a MAC-authenticated request whose entry verifies here, is admitted on arrival) and the answering nodes' claims.
 * Part of {@link NormalCase}.
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
     * Whether this backup may vouch for the slot's batch with a prepare: every gated request in it is admitted here or
     * vouched for by f+1 nodes, or the batch is a new view's re-proposal (its prepared certificate shows correct nodes
     * checked it).
     */
    boolean admittedHere(Slot s) {
        if (s.reproposal || unvouched(s).isEmpty()) {
            awaitingAdmission.remove(s.seq);
            return true;
        }
        if (awaitingAdmission.add(s.seq)) {
            s.admissionAskedAt = replica.now;
        }
        return false;
    }

    /**
     * The gated requests of the slot's batch this node cannot vouch for yet: not admitted here, and fewer than f+1
     * distinct nodes vouch for them (their claimants, the primary that proposed the batch, the backups that prepared
     * it). At least one of f+1 is correct, and a correct node vouches only for what a correct node authenticated.
     */
    List<RequestRef> unvouched(Slot s) {
        List<RequestRef> notAdmitted = replica.admissions.notAdmitted(s.prePrepare.batch());
        if (notAdmitted.isEmpty()) {
            return notAdmitted;
        }
        long vouching = 1L << s.prePrepare.sender();
        for (Prepare p : s.matchingPrepares()) {
            vouching |= 1L << p.sender();
        }
        List<RequestRef> unvouched = new ArrayList<>(notAdmitted.size());
        for (RequestRef ref : notAdmitted) {
            if (replica.claims.vouchers(ref, vouching) < replica.membership.weakQuorum()) {
                unvouched.add(ref);
            }
        }
        return unvouched;
    }

    boolean awaiting(long seq) {
        return awaitingAdmission.contains(seq);
    }

    /**
     * Something arrived that may settle waiting slots (an admission, a claim, a prepare): slots that can prepare now
     * do. When {@code admitted} is a request the gate admitted here, a slot naming another copy of the same request
     * (another caller replica's signature on it) asks for that copy again at once, which the adapter admits when its
     * content is what the gate admitted.
     */
    void recheck(Request admitted) {
        for (long seq : new ArrayList<>(awaitingAdmission)) { // preparing may commit, execute and add slots
            Slot s = replica.log.get(seq);
            if (s == null || s.prepareSent || s.committed || s.prePrepare == null || s.view != replica.view()) {
                awaitingAdmission.remove(seq);
                continue;
            }
            List<RequestRef> unvouched = unvouched(s);
            if (unvouched.isEmpty()) {
                awaitingAdmission.remove(seq);
                normal.sendPrepareIfReady(s);
                normal.checkPrepared(s);
            } else if (admitted != null && s.admissionAskedAt != replica.now
                    && unvouched.stream().anyMatch(ref -> ref.id().equals(admitted.id()))) {
                askAgain(s, unvouched);
            }
        }
    }

    /** Asks again, every fetch timeout, for the gated requests that waiting slots hold but cannot vouch for. */
    void retryFetches() {
        for (long seq : new ArrayList<>(awaitingAdmission)) { // preparing may commit, execute and add slots
            Slot s = replica.log.get(seq);
            if (s == null || s.prepareSent || s.committed || s.prePrepare == null || s.view != replica.view()) {
                awaitingAdmission.remove(seq);
            } else if (replica.now - s.admissionAskedAt >= replica.options.fetchTimeout()) {
                List<RequestRef> unvouched = unvouched(s);
                if (unvouched.isEmpty()) {
                    awaitingAdmission.remove(seq);
                    normal.sendPrepareIfReady(s);
                    normal.checkPrepared(s);
                } else {
                    askAgain(s, unvouched);
                }
            }
        }
    }

    private void askAgain(Slot s, List<RequestRef> unvouched) {
        replica.out.toAgreementNodes(new FetchRequests(unvouched.stream().map(RequestRef::digest).toList(), replica.id()));
        s.admissionAskedAt = replica.now;
    }
}
