package org.bftws.core;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers status messages: when a peer reports the same position twice in a row (it is stuck), this node resends
 * what the peer may lack: the new-view of the current view, its own view-change, the stable checkpoint's proof, its
 * own newer checkpoints, its own votes and the primary's pre-prepares for the slots above the peer's position, and the
 * batches it committed after the peer's position (which the peer takes once f+1 nodes vouch for them). Only the sender's own messages and transferable
 * (signed) ones of others are resent, so a receiver can authenticate all of them.
 */
final class StatusResponder {

    /** Slots resent per answer: enough to refill the in-flight window, bounded so one answer stays small. */
    private static final int MAX_SLOTS = 64;

    private final Replica replica;
    private final Map<Integer, Status> last = new HashMap<>();

    StatusResponder(Replica replica) {
        this.replica = replica;
    }

    void onStatus(Status st) {
        Status previous = last.put(st.sender(), st);
        boolean stuck = previous != null && previous.lastExecuted() == st.lastExecuted()
                && previous.stableSeq() == st.stableSeq() && previous.view() == st.view()
                && previous.viewChanging() == st.viewChanging();
        if (!stuck) {
            return;
        }
        Membership membership = replica.membership;
        Outbox out = replica.out;
        int peer = st.sender();
        if (membership.isAgreementNode(peer)) {
            resendViewMessages(st);
        }
        Checkpoints cp = replica.checkpoints;
        if (st.stableSeq() < cp.stableSeq()) {
            cp.stableProof().stream().filter(c -> c.sender() != peer).forEach(c -> out.toNode(peer, c));
        }
        cp.ownAbove(Math.max(st.stableSeq(), cp.stableSeq())).forEach(c -> out.toNode(peer, c));
        if (membership.isAgreementNode(peer) && st.view() == replica.view()) {
            resendVotes(peer, st.lastExecuted());
        }
        if (st.lastExecuted() < replica.lastCommitted) {
            resendCommittedBatches(peer, st.lastExecuted());
        }
    }

    private void resendViewMessages(Status st) {
        ViewChangeProtocol vc = replica.viewChanges();
        if (replica.viewChanging && vc.mine() != null) {
            replica.out.toNode(st.sender(), vc.mine());
        } else if (!replica.viewChanging && st.view() < replica.view() && vc.lastNewView() != null) {
            replica.out.toNode(st.sender(), vc.lastNewView());
        }
    }

    private void resendVotes(int peer, long peerPosition) {
        int count = 0;
        for (Slot s : replica.log.above(Math.max(peerPosition, replica.checkpoints.stableSeq()))) {
            if (count++ >= MAX_SLOTS) {
                break;
            }
            if (s.view != replica.view()) {
                continue;
            }
            if (s.prePrepare != null && s.prePrepare.sender() != peer) {
                replica.out.toNode(peer, s.prePrepare);
            }
            if (s.prepareSent) {
                replica.out.toNode(peer, s.prepares.get(replica.id()));
            }
            if (s.commitSent) {
                replica.out.toNode(peer, s.commits.get(replica.id()));
            }
        }
    }

    private void resendCommittedBatches(int peer, long peerPosition) {
        int count = 0;
        for (Slot s : replica.log.range(peerPosition, replica.lastCommitted)) {
            if (count++ >= MAX_SLOTS) {
                break;
            }
            if (s.committed && replica.requests.hasAll(s.committedBatch)) {
                List<Request> bodies = replica.requests.bodiesOf(s.committedBatch);
                replica.out.toNode(peer, new CommittedBatch(s.view, s.seq, s.committedBatch, bodies, replica.id()));
            }
        }
    }

    /** Serves a stable checkpoint to a node that fell behind. */
    void answerFetchState(FetchState fs, ExecutionStage execution) {
        answer(fs, execution, replica.checkpoints, replica.out, replica.id());
    }

    /**
     * Serves the stable checkpoint with its proof; failing that, this node's own checkpoint at exactly the requested
     * sequence number without proof (the requester knows the stable digest and checks the bytes against it). The
     * latter lets a node that has not yet seen the checkpoint become stable still help one that has.
     */
    static void answer(FetchState fs, ExecutionStage execution, Checkpoints cp, Outbox out, int self) {
        long s = cp.stableSeq();
        byte[] stable = execution == null ? null : execution.encodedState(s);
        if (s > 0 && s >= fs.seq() && stable != null) {
            out.toNode(fs.sender(), new StateSnapshot(s, stable, cp.stableProof(), self));
            return;
        }
        byte[] own = execution == null ? null : execution.encodedState(fs.seq());
        if (own != null) {
            out.toNode(fs.sender(), new StateSnapshot(fs.seq(), own, java.util.List.of(), self));
            return;
        }
        out.drop(fs, "no checkpoint at or after " + fs.seq() + " here");
    }
}
