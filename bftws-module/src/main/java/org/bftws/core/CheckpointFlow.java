package org.bftws.core;

/**
 * Checkpoints and state transfer on an agreement node: its own checkpoints as execution takes them, the peers'
 * checkpoints until one is stable, what a stable checkpoint sets off (catching up from the log or by state transfer,
 * garbage collection, the durable record), and installing a fetched snapshot. The {@link Replica} it belongs to keeps
 * the view and the committed prefix; this class moves that prefix forward when a checkpoint or a snapshot says so.
 */
final class CheckpointFlow {
    private final Replica replica;
    private final ExecutionStage execution;
    private final StateTransfer stateTransfer;
    private final NormalCase normal;
    private final Checkpoints checkpoints;
    private final Outbox out;

    /** @param execution null on a node that orders without executing */
    CheckpointFlow(Replica replica, ExecutionStage execution, StateTransfer stateTransfer, NormalCase normal) {
        this.replica = replica;
        this.execution = execution;
        this.stateTransfer = stateTransfer;
        this.normal = normal;
        this.checkpoints = replica.checkpoints;
        this.out = replica.out;
    }

    /** Execution took the state at {@code seq}: this node's checkpoint for it, sent to every node. */
    void onCheckpointState(long seq, byte[] applicationState) {
        if (execution == null) {
            out.drop("checkpoint state for " + seq, "this node does not execute");
            return;
        }
        execution.checkpointTaken(seq, applicationState).ifPresent(c -> {
            if (c.seq() > checkpoints.stableSeq()) {
                checkpoints.addOwn(c);
                out.toAllNodes(c);
                if (checkpoints.add(c)) {
                    onStable();
                }
            } else if (c.seq() == checkpoints.stableSeq() && !c.state().equals(checkpoints.stableDigest())) {
                out.add(new Output.Diverged(c.seq(), c.state(), checkpoints.stableDigest()));
            } else if (c.seq() == checkpoints.stableSeq()) {
                persistStableCheckpoint();
            }
        });
    }

    /** The service holds the fetched state at {@code seq}. */
    void onStateInstalled(long seq) {
        if (execution == null) {
            out.drop("state installed at " + seq, "this node does not execute");
            return;
        }
        boolean rollback = execution.rollingBack();
        ReplyTable table = execution.installed(seq);
        if (table != null && rollback) {
            execution.resume(); // a tentative execution undone: the committed batches since the state run again
        } else if (table != null) {
            finishStateTransfer(seq, table);
            execution.resume();
        }
    }

    /**
     * The service could not install the state, or give its own for the checkpoint, at {@code seq}: this node executes
     * nothing more until it installs a stable checkpoint at or above {@code seq}, which it fetches from one executor
     * after another. It goes on taking part in the agreement.
     */
    void onExecutionFailed(long seq) {
        if (execution == null) {
            out.drop("execution failure at " + seq, "this node does not execute");
            return;
        }
        if (execution.failed(seq)) {
            stateTransfer.lost(Math.max(seq, checkpoints.stableSeq()), replica.now);
        }
    }

    void onCheckpoint(Checkpoint c) {
        String problem = checkpoints.problem(c);
        if (problem != null) {
            out.drop(c, problem);
        } else if (c.seq() == checkpoints.stableSeq() && !c.state().equals(checkpoints.stableDigest())) {
            out.drop(c, "contradicts the stable checkpoint's digest " + checkpoints.stableDigest());
        } else if (checkpoints.add(c)) {
            onStable();
        }
    }

    /** A newer checkpoint is stable: catch up to it (from the log or by state transfer) and collect garbage. */
    void onStable() {
        long s = checkpoints.stableSeq();
        for (Checkpoint c : checkpoints.takeContradicting()) {
            out.drop(c, "contradicts the stable checkpoint's digest " + checkpoints.stableDigest());
        }
        persistStableCheckpoint();
        replica.advanceCommitted();
        if (replica.lastCommitted < s) {
            stateTransfer.need(s, replica.now);
        } else if (execution != null && execution.stateLost()) {
            stateTransfer.needForExecution(s, replica.now); // a newer state to install instead of the lost one
        } else if (executionFarBehind(s)) {
            stateTransfer.needForExecution(s, replica.now);
        } else if (execution != null) {
            Digest own = checkpoints.ownDigest(s);
            if (own != null && !own.equals(checkpoints.stableDigest())) {
                out.add(new Output.Diverged(s, own, checkpoints.stableDigest()));
            }
        }
        replica.log.discardUpTo(s);
        normal.discardUpTo(s);
        replica.requests.stopAwaitingUpTo(s);
        replica.requests.collectGarbage(replica.log.namedRequests());
        replica.claims.collectGarbage(replica.requests::committedNumber);
        if (execution != null) {
            execution.collectGarbage(s);
        }
        replica.nextSeq = Math.max(replica.nextSeq, s + 1);
        normal.tryPropose();
    }

    /**
     * Whether this node's execution lags the stable checkpoint {@code s} by more than a watermark window although its
     * agreement keeps up: it then fetches the state rather than executing every batch in between, as PBFT's node
     * whose log fell below the low watermark does. On a shared box one replica's executions fell thousands of
     * requests behind while it kept committing; behind by more than a client's WS-RM window it refused the clients'
     * copies, authenticated relayed bodies instead and spent more than twice the others' CPU per request, so it never
     * caught up and slowed the three it shared the cores with (testbed, 8 clients, 2026-11-27).
     */
    private boolean executionFarBehind(long s) {
        return execution != null && !execution.installing()
                && execution.lastExecuted() + replica.options.watermarkWindow() < s;
    }

    /** Records the stable checkpoint, with this node's encoded state for it when it has it. */
    private void persistStableCheckpoint() {
        long s = checkpoints.stableSeq();
        byte[] state = execution == null ? null : execution.encodedState(s);
        out.add(new Output.Persist(new DurableRecord.CheckpointRecord(s, checkpoints.stableDigest(),
                checkpoints.stableProof(), state)));
    }

    void onSnapshot(StateSnapshot snapshot) {
        // an executor takes any proven state newer than what it executed, even below what it committed
        long own = execution == null ? replica.lastCommitted : execution.installableAbove();
        StateTransfer.Accepted accepted = stateTransfer.accept(snapshot, checkpoints, own);
        if (accepted == null) {
            return;
        }
        if (!snapshot.proof().isEmpty() && checkpoints.adopt(snapshot.seq(), accepted.digest(), snapshot.proof())) {
            replica.log.discardUpTo(snapshot.seq());
        }
        if (execution != null) {
            execution.install(accepted.state(), accepted.encoded());
        } else {
            finishStateTransfer(snapshot.seq(), accepted.state().replies());
        }
    }

    private void finishStateTransfer(long seq, ReplyTable table) {
        if (seq == checkpoints.stableSeq()) {
            persistStableCheckpoint();
        }
        replica.lastCommitted = Math.max(replica.lastCommitted, seq);
        replica.requests.jumpTo(table);
        // A primary that fell behind may have batches of its own in flight above the installed checkpoint: they stay
        // proposed, or it would propose their requests a second time (which, for a gated request whose claims went
        // with its first commit, no backup could vouch for).
        for (Slot s : replica.log.above(seq)) {
            Batch b = s.committed ? s.committedBatch
                    : s.prePrepare != null && s.view == replica.view() ? s.prePrepare.batch() : null;
            if (b != null) {
                replica.requests.markProposed(b);
            }
        }
        replica.claims.collectGarbage(replica.requests::committedNumber);
        stateTransfer.installed();
        out.add(new Output.StateTransferred(seq));
        replica.log.discardUpTo(seq);
        replica.lastProgressTick = replica.now;
        replica.advanceCommitted();
    }
}
