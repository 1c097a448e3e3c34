package org.bftws.core;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers status messages: when a peer reports the same position twice in a row (it is stuck), this node resends
 * what the peer may lack: the new-view of the current view with the view-changes it names, its own view-change (unless the peer's status says it
 * holds it), the stable checkpoint's proof, its own newer checkpoints, its own votes and the primary's pre-prepares
 * for the slots above the peer's position, and the batches it committed after the peer's position (which the peer
 * takes once f+1 nodes vouch for them). Only the sender's own messages and transferable (signed) ones of others are
 * resent, so a receiver can authenticate all of them.
 *
 * <p>A peer that stays stuck is answered less and less often: after every answer the number of identical statuses
 * awaited before the next one doubles, up to {@link #MAX_BACKOFF}, and falls back to one when the peer moves. A peer
 * that is merely slow (busy verifying what it already received) would otherwise get everything again every status
 * period, which makes it slower still: on a loaded machine that feedback turned view changes into a storm of
 * retransmitted view-changes, megabytes each.
 */
final class StatusResponder {

    /** Slots resent per answer: enough to refill the in-flight window, bounded so one answer stays small. */
    private static final int MAX_SLOTS = 64;
    /** The most identical statuses awaited between two answers to the same stuck peer. */
    static final int MAX_BACKOFF = 16;
    /**
     * Status periods after entering a view before its new-view is resent to a peer still behind. Right after the
     * view change a peer behind is most likely still checking the new-view it got (one that re-proposes a checkpoint
     * interval of slots embeds hundreds of signed messages); a second copy queued behind the first on the channel
     * to it delayed everything sent after it, the commits of the request the client waits for among them. A peer
     * that really lost it (it was down, or restarted) gets it a little later.
     */
    static final int NEW_VIEW_HOLD_OFF = 2;

    private final Replica replica;
    private final Map<Integer, Status> last = new HashMap<>();
    /** Per stuck peer: identical statuses seen since the last answer, and how many the next answer waits for. */
    private final Map<Integer, int[]> backoff = new HashMap<>();

    StatusResponder(Replica replica) {
        this.replica = replica;
    }

    void onStatus(Status st) {
        Status previous = last.put(st.sender(), st);
        boolean stuck = previous != null && previous.lastExecuted() == st.lastExecuted()
                && previous.stableSeq() == st.stableSeq() && previous.view() == st.view()
                && previous.viewChanging() == st.viewChanging();
        if (!stuck) {
            backoff.remove(st.sender());
            return;
        }
        int[] b = backoff.computeIfAbsent(st.sender(), k -> new int[] {0, 1});
        if (++b[0] < b[1]) {
            return;
        }
        b[0] = 0;
        b[1] = Math.min(2 * b[1], MAX_BACKOFF);
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
        ViewChange mine = vc.mine();
        if (replica.viewChanging && mine != null) {
            // useless to a peer that holds it, or to one that entered or targets a later view than it announces
            boolean useful = !st.holdsViewChangeOf(replica.id()) && (st.targetView() < mine.newView()
                    || st.viewChanging() && st.targetView() == mine.newView());
            if (useful) {
                replica.out.toNode(st.sender(), mine);
            }
        } else if (!replica.viewChanging && st.view() < replica.view() && vc.lastNewView() != null
                && replica.now - vc.installedAt() >= NEW_VIEW_HOLD_OFF * replica.options.statusPeriod()) {
            vc.resendNewView(st.sender());
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
            out.toNode(fs.sender(), StateSnapshot.handingOver(s, stable, cp.stableProof(), self));
            return;
        }
        byte[] own = execution == null ? null : execution.encodedState(fs.seq());
        if (own != null) {
            out.toNode(fs.sender(), StateSnapshot.handingOver(fs.seq(), own, java.util.List.of(), self));
            return;
        }
        out.drop(fs, "no checkpoint at or after " + fs.seq() + " here");
    }
}
