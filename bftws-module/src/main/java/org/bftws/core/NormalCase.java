package org.bftws.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * PBFT's normal case at one agreement node (Castro and Liskov, section 4.2): the primary's proposals, pre-prepare,
 * prepare and commit, request bodies a backup lacks, commits learnt from peers' vouches, and messages for a view not
 * entered yet. The {@link Replica} it belongs to keeps the view, the committed prefix and execution; this class reads
 * and advances them through it, like {@link ViewChangeProtocol} does.
 */
final class NormalCase {

    /** Messages for a view this node has not entered yet, kept until it does. */
    private static final int FUTURE_LIMIT = 4096;

    private final Replica replica;
    private final int id;
    private final Membership membership;
    private final ReplicaOptions options;
    private final Outbox out;
    private final RequestStore requests;
    private final OrderingLog log;
    private final Checkpoints checkpoints;
    private final CommitVouches vouches;
    private final AdmissionWaits admissionWaits;
    private final ArrayDeque<Message> future = new ArrayDeque<>();
    private final PrePrepareArrivals arrivals;

    NormalCase(Replica replica) {
        this.replica = replica;
        this.id = replica.id();
        this.membership = replica.membership;
        this.options = replica.options;
        this.out = replica.out;
        this.requests = replica.requests;
        this.log = replica.log;
        this.checkpoints = replica.checkpoints;
        this.vouches = new CommitVouches(membership);
        this.admissionWaits = new AdmissionWaits(replica, this);
        this.arrivals = new PrePrepareArrivals(4 * options.watermarkWindow() + 16);
    }

    /** Messages that arrived for a view this node has since entered, in arrival order; the buffer is emptied. */
    List<Message> takeEarlyMessages() {
        List<Message> early = new ArrayList<>(future);
        future.clear();
        return early;
    }

    /** The stable checkpoint moved to {@code seq}: vouches at or below it are history. */
    void discardUpTo(long seq) {
        vouches.discardUpTo(seq);
        arrivals.discardUpTo(seq);
    }

    void bodyArrived(Digest d) {
        for (long seq : requests.arrived(d)) {
            Slot s = log.get(seq);
            if (s != null && s.prePrepare != null && s.view == replica.view()) {
                sendPrepareIfReady(s);
                checkPrepared(s);
            }
        }
        replica.advanceCommitted();
    }

    /**
     * Answers with the bodies asked for that this node holds; for gated ones also with what vouches for them here
     * (this node's claim, the signed claims it holds), since the asker may lack the bodies' authenticity rather than
     * the bodies.
     */
    void onFetchRequests(FetchRequests fr) {
        List<Request> found = new ArrayList<>();
        for (Digest d : fr.digests()) {
            Request body = requests.body(d);
            if (body != null && found.size() < 2 * options.batchMaxSize()) {
                found.add(body);
            }
        }
        if (!found.isEmpty()) {
            out.toNode(fr.sender(), new ForwardedRequests(found, id));
            replica.claimProtocol.vouchFor(found, fr.sender());
        }
    }

    /** Bodies asked for and still missing after the fetch timeout are asked from every agreement node. */
    void retryBodyFetches() {
        admissionWaits.retryFetches();
        if (!requests.awaitsBodies()) {
            return; // the common case: nothing to scan on every tick
        }
        for (Slot s : log.above(checkpoints.stableSeq())) {
            if (s.bodiesAskedAt >= 0 && replica.now - s.bodiesAskedAt >= options.fetchTimeout() && s.wantedBatch() != null) {
                s.bodiesAskedAt = -1;
                haveBodies(s, -1);
            } else if (s.bodiesAskedAt < 0 && s.bodiesMissingSince >= 0 && s.prePrepare != null && s.view == replica.view()) {
                sendPrepareIfReady(s); // asks the primary once the grace for the client's own copy is over
            }
        }
    }

    /** The primary proposes batches while the window, the in-flight bound and the batching rule allow. */
    void tryPropose() {
        while (replica.isPrimary() && !replica.viewChanging && !replica.stateTransferActive()
                && replica.nextSeq <= checkpoints.stableSeq() + options.watermarkWindow()
                && replica.nextSeq - 1 - replica.lastCommitted < options.maxBatchesInFlight()) {
            java.util.function.Predicate<Request> ready = replica.claimProtocol::proposable;
            int eligible = requests.eligibleCount(options.batchMaxSize(), ready);
            if (eligible == 0) {
                return;
            }
            if (eligible < options.batchMaxSize() && options.batchDelayTicks() > 0
                    && replica.now - requests.oldestEligibleTick(ready).orElse(replica.now) < options.batchDelayTicks()) {
                return;
            }
            if (eligible < options.batchMaxSize() && replica.pacing.holdBack(replica.now)) {
                return; // clients about to send again join this batch (BatchPacing)
            }
            replica.pacing.proposed();
            // Stamped with this node's clock: the backups check it against theirs, execution takes the running
            // maximum of the stamps (a clock that steps back moves no agreed time back).
            Batch batch = requests.nextBatch(options.batchMaxSize(), ready);
            PrePrepare pp = new PrePrepare(replica.view(), replica.nextSeq++,
                    new Batch(batch.requests(), replica.clockMillis), id);
            Slot s = log.slot(pp.seq());
            s.enterView(replica.view());
            s.prePrepare = pp;
            s.notePrePrepared(replica.now);
            out.toAgreementNodes(pp);
            checkPrepared(s);
        }
    }

    /**
     * Whether a message of {@code msgView} for {@code seq} can be handled now; buffers it if it is early. Messages
     * of the installed view are taken even during a view change: the node no longer votes, but it can still learn
     * what 2f+1 others committed.
     */
    private boolean current(Message m, int msgView, long seq) {
        if (msgView < replica.view()) {
            return false;
        }
        if (msgView > replica.view()) {
            if (future.size() >= FUTURE_LIMIT) {
                future.poll();
            }
            future.add(m);
            return false;
        }
        long low = checkpoints.stableSeq();
        if (seq <= low || seq > low + options.watermarkWindow()) {
            out.drop(m, "sequence number outside the watermarks (" + low + ", " + (low + options.watermarkWindow()) + "]");
            return false;
        }
        return true;
    }

    void onPrePrepare(PrePrepare pp) {
        if (pp.sender() != membership.primary(pp.view())) {
            out.drop(pp, "not from the primary of view " + pp.view());
            return;
        }
        long low = checkpoints.stableSeq();
        long arrivedAt = pp.view() >= replica.view() && pp.seq() > low && pp.seq() <= low + 2L * options.watermarkWindow()
                ? arrivals.arrived(pp, replica.clockMillis) : replica.clockMillis;
        if (!current(pp, pp.view(), pp.seq())) {
            return;
        }
        Batch b = pp.batch();
        if (b.isNull() || b.size() > options.batchMaxSize() || b.hasDuplicateIds()) {
            out.drop(pp, "malformed batch");
            return;
        }
        Slot s = log.slot(pp.seq());
        s.enterView(replica.view());
        if (s.prePrepare != null) {
            if (!s.prePrepare.digest().equals(pp.digest())) {
                // Two signed pre-prepares for one slot: proof that the primary equivocates. Keep it: if 2f+1
                // others committed this one, this node learns the decision from their commits.
                out.drop(pp, "the primary sent a different pre-prepare for this sequence number");
                s.otherPrePrepares.putIfAbsent(pp.digest(), pp);
                replica.viewChanges().start(replica.view() + 1, "the primary sent two different pre-prepares for " + pp.seq());
                checkCommitted(s);
            }
            return;
        }
        if (s.committed && !s.committedBatch.digest().equals(pp.digest())) {
            out.drop(pp, "contradicts the batch committed at this sequence number");
            return;
        }
        s.prePrepare = pp;
        s.notePrePrepared(replica.now);
        long skew = pp.batch().time() - arrivedAt; // PrePrepareArrivals: when it first reached this node
        if (options.sequenceIdleLimit() > 0 && Math.abs(skew) > options.clockBound()) {
            // A lying (or badly set) clock would expire sequences too early, or never: this backup withholds its
            // prepare, as if the primary stalled; the view-change timer of the waiting requests replaces it.
            s.clockRefused = true;
            out.drop(pp, "its time is " + skew + " ms off this node's clock, beyond the bound of "
                    + options.clockBound() + " ms: not prepared");
        }
        sendPrepareIfReady(s);
        checkPrepared(s);
        checkCommitted(s);
    }

    /** A backup prepares only requests it holds: then a prepared batch can always be executed. */
    void sendPrepareIfReady(Slot s) {
        if (s.prepareSent) {
            return;
        }
        if (replica.isPrimary()) {
            // A new primary re-proposes batches that others prepared; it may never have received their requests
            // (it was down, and their clients got their replies and stopped resending). Without the bodies it can
            // never prepare, so never commit, what it proposed itself: it fetches them like a backup would.
            haveBodies(s, -1);
            return;
        }
        if (!haveBodies(s, s.prePrepare.sender())) {
            return;
        }
        if (replica.viewChanging || s.clockRefused || !admissionWaits.admittedHere(s)) {
            return;
        }
        Prepare p = new Prepare(replica.view(), s.seq, s.prePrepare.digest(), id);
        s.prepares.put(id, p);
        s.prepareSent = true;
        out.toAgreementNodes(p);
    }

    void onPrepare(Prepare p) {
        if (p.sender() == membership.primary(p.view())) {
            out.drop(p, "the primary does not prepare");
            return;
        }
        if (!current(p, p.view(), p.seq())) {
            return;
        }
        Slot s = log.slot(p.seq());
        s.enterView(replica.view());
        Prepare earlier = s.prepares.putIfAbsent(p.sender(), p);
        if (earlier != null && !earlier.digest().equals(p.digest())) {
            out.drop(p, "node " + p.sender() + " already prepared another batch here");
            return;
        }
        if (earlier == null && admissionWaits.awaiting(s.seq)) {
            admissionWaits.recheck(null); // a backup that prepared vouches for the batch's gated requests
        }
        checkPrepared(s);
    }

    /**
     * Whether the slot's wanted batch is all here; if not, asks {@code from} (or everyone, -1) for the rest. A backup
     * asks the primary only after {@link #fetchGrace}: the client sent its request to every replica, and its copy is
     * usually on the way when a fast primary's pre-prepare overtakes it (asking at once cost two more messages and a
     * second signature check for about one request in eight on a loaded testbed).
     */
    boolean haveBodies(Slot s, int from) {
        List<Digest> missing = requests.awaitMissing(s.wantedBatch(), s.seq);
        if (missing.isEmpty()) {
            s.bodiesAskedAt = -1;
            s.bodiesMissingSince = -1;
            return true;
        }
        if (s.bodiesAskedAt < 0) {
            if (from >= 0 && from != id) {
                if (s.bodiesMissingSince < 0) {
                    s.bodiesMissingSince = replica.now;
                }
                if (replica.now - s.bodiesMissingSince < fetchGrace()) {
                    return false;
                }
                out.toNode(from, new FetchRequests(missing, id));
            } else {
                out.toAgreementNodes(new FetchRequests(missing, id));
            }
            s.bodiesAskedAt = replica.now;
        }
        return false;
    }

    /** Ticks a backup waits for a client's own copy of a pre-prepared request before asking the primary. */
    private int fetchGrace() {
        return Math.max(1, options.fetchTimeout() / 20);
    }

    /** The gate admitted {@code r} here: slots that waited for it may prepare now (see {@link AdmissionWaits}). */
    void admissionArrived(Request r) {
        admissionWaits.recheck(r);
    }

    /** Claims arrived: slots that waited for vouchers may prepare now (see {@link AdmissionWaits}). */
    void vouchesArrived() {
        admissionWaits.recheck(null);
    }

    void checkPrepared(Slot s) {
        if (replica.viewChanging || s.prepared || s.prePrepare == null || !requests.hasAll(s.prePrepare.batch())) {
            return;
        }
        List<Prepare> matching = s.matchingPrepares();
        if (matching.size() < membership.prepareQuorum()) {
            return;
        }
        s.prepared = true;
        s.certificate = new PreparedCertificate(s.prePrepare, matching.subList(0, membership.prepareQuorum()));
        out.add(new Output.Persist(new DurableRecord.PreparedRecord(s.certificate, requests.bodiesOf(s.prePrepare.batch()))));
        Commit c = new Commit(replica.view(), s.seq, s.prePrepare.digest(), id);
        s.commits.put(id, c);
        s.commitSent = true;
        out.toAgreementNodes(c);
        checkCommitted(s);
    }

    void onCommit(Commit c) {
        if (!current(c, c.view(), c.seq())) {
            return;
        }
        Slot s = log.slot(c.seq());
        s.enterView(replica.view());
        Commit earlier = s.commits.putIfAbsent(c.sender(), c);
        if (earlier != null && !earlier.digest().equals(c.digest())) {
            out.drop(c, "node " + c.sender() + " already committed another batch here");
            return;
        }
        checkCommitted(s);
    }

    /**
     * Committed once 2f+1 nodes sent matching commits for a pre-prepare of the primary: each commit means its sender
     * prepared the batch, so f+1 correct nodes did and no later view can decide otherwise. A node that voted commits
     * this way (its own commit counts); one that missed votes, or stopped voting for a view change, learns it.
     */
    void checkCommitted(Slot s) {
        if (s.committed || s.prePrepare == null) {
            return;
        }
        PrePrepare decided = s.commitsFor(s.prePrepare.digest()) >= membership.quorum() ? s.prePrepare : null;
        for (PrePrepare other : s.otherPrePrepares.values()) {
            if (decided == null && s.commitsFor(other.digest()) >= membership.quorum()) {
                decided = other;
            }
        }
        if (decided == null) {
            return;
        }
        s.committed = true;
        s.committedBatch = decided.batch();
        replica.advanceCommitted();
    }

    /** A peer vouches that a batch committed: with f+1 matching vouches this node takes it as committed too. */
    void onCommittedBatch(CommittedBatch cb) {
        long low = checkpoints.stableSeq();
        if (cb.seq() <= replica.lastCommitted || cb.seq() > low + options.watermarkWindow()) {
            return;
        }
        String problem = vouches.add(cb);
        if (problem != null) {
            out.drop(cb, problem);
            return;
        }
        CommittedBatch decided = vouches.decided(cb.seq());
        Slot s = log.slot(cb.seq());
        if (decided == null || s.committed) {
            return;
        }
        decided.requests().forEach(requests::addBody);
        s.committed = true;
        s.committedBatch = decided.batch();
        replica.advanceCommitted();
    }
}
