package org.bftws.core;

import java.util.List;

/**
 * Fetching a stable checkpoint when a node fell behind it (or restarted empty): ask one executor, then the next one
 * after a timeout; accept only a state whose digest a checkpoint quorum proves.
 */
final class StateTransfer {

    private final int id;
    private final Membership membership;
    private final ReplicaOptions options;
    private final Outbox out;
    private long target = -1;
    private long askedAt;
    private int peerCursor;
    private boolean installing;

    StateTransfer(int id, Membership membership, ReplicaOptions options, Outbox out) {
        this.id = id;
        this.membership = membership;
        this.options = options;
        this.out = out;
        this.peerCursor = id;
    }

    boolean active() {
        return target >= 0;
    }

    boolean installing() {
        return installing;
    }

    /** The node needs the stable checkpoint at {@code seq} (or a later one). */
    void need(long seq, long now) {
        if (seq > target && !installing) {
            target = seq;
            ask(now);
        }
    }

    /** A restart installs the stable checkpoint from the node's own data directory. */
    void installingFromDisk(long seq) {
        target = seq;
        installing = true;
    }

    /** The node caught up to the target another way (through its log): no state is needed any more. */
    void caughtUp(long position) {
        if (active() && !installing && position >= target) {
            target = -1;
        }
    }

    void onTick(long now) {
        if (active() && !installing && now - askedAt >= options.fetchTimeout()) {
            ask(now);
        }
    }

    private void ask(long now) {
        List<Integer> executors = membership.executors();
        int peer;
        do {
            peerCursor = (peerCursor + 1) % membership.size();
            peer = peerCursor;
        } while (peer == id || !executors.contains(peer));
        out.toNode(peer, new FetchState(target, id));
        askedAt = now;
    }

    /** A verified snapshot: its decoded state and its encoding (one copy of the bytes). */
    record Accepted(CheckpointState state, byte[] encoded, Digest digest) {
    }

    /** Checks a snapshot against the node's needs and its proof; returns it verified, or null after a drop. */
    Accepted accept(StateSnapshot s, Checkpoints checkpoints, long lastExecuted) {
        if (!active() || installing) {
            out.drop(s, "not fetching state");
            return null;
        }
        if (s.seq() < target || s.seq() <= lastExecuted) {
            out.drop(s, "older than the checkpoint needed (" + target + ")");
            return null;
        }
        Digest claimed;
        if (!s.proof().isEmpty()) {
            claimed = s.proof().get(0).state();
            if (!checkpoints.proves(s.seq(), claimed, s.proof())) {
                out.drop(s, "its proof does not show the checkpoint stable");
                return null;
            }
        } else if (s.seq() == checkpoints.stableSeq()) {
            claimed = checkpoints.stableDigest();
        } else {
            out.drop(s, "no proof, and not the stable checkpoint this node knows");
            return null;
        }
        byte[] bytes = s.state();
        if (!Digest.of(bytes).equals(claimed)) {
            out.drop(s, "state does not match the stable checkpoint's digest");
            return null;
        }
        CheckpointState state;
        try {
            state = CheckpointState.decode(bytes);
        } catch (IllegalArgumentException e) {
            out.drop(s, "malformed state: " + e.getMessage());
            return null;
        }
        if (state.seq() != s.seq()) {
            out.drop(s, "state is for " + state.seq() + ", not " + s.seq());
            return null;
        }
        installing = true;
        return new Accepted(state, bytes, claimed);
    }

    void installed() {
        target = -1;
        installing = false;
    }
}
