package org.bftws.core;

import java.util.List;

/**
 * Fetching a stable checkpoint when a node fell behind it (or restarted empty): ask one executor, then the next one
 * after a timeout; accept only a state whose digest a checkpoint quorum proves.
 *
 * <p>A state can be megabytes, and its transfer can take longer than the group takes to make the next checkpoint
 * stable. So one request is outstanding at a time: a newer stable checkpoint learned meanwhile raises the target but
 * does not ask again (the executor answers with its newest stable checkpoint anyway); the next executor is asked only
 * after {@value #FIRST_WAIT_FACTOR} fetch timeouts, a wait that doubles with every unanswered request (up to
 * {@value #MAX_BACKOFF_DOUBLINGS} doublings); and a
 * proven state newer than the node's own is installed even when the target moved past it meanwhile (refusing it threw
 * the whole transfer away), after which the node asks for the rest. Asking every executor at every new stable
 * checkpoint and every fetch timeout had several 10 MB snapshots in flight to one node, which ran out of memory.
 */
final class StateTransfer {

    private final int id;
    private final Membership membership;
    private final ReplicaOptions options;
    private final Outbox out;
    /** A state is one message of up to megabytes: its answer may take several times a request body's. */
    static final int FIRST_WAIT_FACTOR = 4;
    static final int MAX_BACKOFF_DOUBLINGS = 4;

    private long target = -1;
    private long askedAt;
    /** Requests sent since the last accepted state: the next one waits fetchTimeout * 4 * 2^(asked-1). */
    private int asked;
    private long installingSeq = -1;
    private int peerCursor;
    private boolean installing;
    /**
     * The transfer is for execution only: the node's agreement keeps up (it commits with the group), its executions
     * lag. Such a transfer neither stops the node proposing as primary nor pauses its view-change timer.
     */
    private boolean forExecutionOnly;
    /** The node's service lost its state (a set_state or get_state failed): only an installed state ends the transfer. */
    private boolean forLostState;

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

    /** Whether the node's agreement waits for the transfer (it fell behind the stable checkpoint, not only its executions). */
    boolean holdsAgreement() {
        return active() && !forExecutionOnly;
    }

    /** The node needs the stable checkpoint at {@code seq} (or a later one): its committed prefix is behind it. */
    void need(long seq, long now) {
        forExecutionOnly = false;
        fetch(seq, now);
    }

    /** The node's executions, not its agreement, are behind the stable checkpoint at {@code seq}. */
    void needForExecution(long seq, long now) {
        if (!active()) {
            forExecutionOnly = true;
        }
        fetch(seq, now);
    }

    private void fetch(long seq, long now) {
        if (seq > target) {
            boolean waiting = active();
            target = seq;
            if (!waiting) {
                asked = 0;
                ask(now);
            }
        }
    }

    /** A restart installs the stable checkpoint from the node's own data directory. */
    void installingFromDisk(long seq) {
        target = Math.max(target, seq);
        installingSeq = seq;
        installing = true;
    }

    /** The node caught up to the target another way (through its log): no state is needed any more. */
    void caughtUp(long position) {
        caughtUp(position, position);
    }

    /**
     * As {@link #caughtUp(long)}, for a node that commits up to {@code committed} and executed up to {@code executed}:
     * a transfer for execution only ends when the executions reach the target.
     */
    void caughtUp(long committed, long executed) {
        if (active() && !installing && !forLostState && (forExecutionOnly ? executed : committed) >= target) {
            target = -1;
        }
    }

    /** Whether the transfer replaces a state the service lost (see {@link #lost}). */
    boolean forLostState() {
        return forLostState;
    }

    /**
     * The service could not install a state, or give its own for a checkpoint, at {@code seq}: its state is lost and a
     * stable checkpoint at or above {@code seq} must be installed. An installation that failed is given up; the next
     * executor is asked (it answers with its newest stable checkpoint) after the usual wait, which doubles with every
     * request left without an installed state. A node that was not fetching asks at once, for execution only: its
     * agreement keeps up.
     */
    void lost(long seq, long now) {
        boolean wasActive = active();
        installing = false;
        installingSeq = -1;
        forLostState = true;
        target = Math.max(target, seq);
        if (wasActive) {
            askedAt = now;
        } else {
            forExecutionOnly = true;
            asked = 0;
            ask(now);
        }
    }

    void onTick(long now) {
        if (active() && !installing && now - askedAt >= retryAfter()) {
            ask(now);
        }
    }

    /** Ticks to wait for an answer to the last request before asking the next executor. */
    private long retryAfter() {
        long first = (long) options.fetchTimeout() * FIRST_WAIT_FACTOR;
        return first << Math.min(Math.max(asked - 1, 0), MAX_BACKOFF_DOUBLINGS);
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
        asked++;
    }

    /** A verified snapshot: its decoded state and its encoding (one copy of the bytes). */
    record Accepted(CheckpointState state, byte[] encoded, Digest digest) {
    }

    /** Checks a snapshot against the node's needs and its proof; returns it verified, or null after a drop. */
    Accepted accept(StateSnapshot s, Checkpoints checkpoints, long lastExecuted) {
        if (!active() || installing) {
            out.drop(s, installing ? "already installing a state" : "not fetching state");
            return null;
        }
        if (s.seq() <= lastExecuted) {
            out.drop(s, "not newer than this node's state (" + lastExecuted + ")");
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
        byte[] bytes = s.sharedBytes();
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
        installingSeq = s.seq();
        return new Accepted(state, bytes, claimed);
    }

    /**
     * The state being installed is in place. If a newer stable checkpoint became known meanwhile, the node asks for
     * it at the next tick (its log cannot bridge the gap: the others discarded it up to that checkpoint).
     */
    void installed() {
        installing = false;
        forLostState = false;
        asked = 0;
        if (target > installingSeq) {
            askedAt = Long.MIN_VALUE / 2;
        } else {
            target = -1;
        }
        installingSeq = -1;
    }
}
