package org.bftws.core;

import java.util.List;

/**
 * An execution node of Configuration III: it does not order, it executes batches that agreement nodes committed.
 * A batch counts once f+1 agreement nodes sent the same one for the same sequence number (at least one of them is
 * correct, and a correct agreement node forwards only committed batches). It keeps the last-reply table, answers
 * clients, takes checkpoints with the other execution nodes and fetches state when it falls behind.
 */
public final class ExecutionNode implements Node {

    private final int id;
    private final Membership membership;
    private final ReplicaOptions options;
    private final Outbox out = new Outbox();
    private final ExecutionStage execution;
    private final Checkpoints checkpoints;
    private final StateTransfer stateTransfer;
    private final CommitVouches committed;
    private final java.util.Map<Integer, Status> lastStatus = new java.util.HashMap<>();
    /** Batches this node executed before a restart, executed again on top of its recovered checkpoint. */
    private final java.util.TreeMap<Long, DurableRecord.CommittedRecord> recovered = new java.util.TreeMap<>();
    private long now;
    private long lastStatusTick;
    private int view;

    public ExecutionNode(int id, Membership membership, ReplicaOptions options) {
        this(id, membership, options, SequenceRules.NONE);
    }

    public ExecutionNode(int id, Membership membership, ReplicaOptions options, SequenceRules rules) {
        if (membership.role(id) != Role.EXECUTE) {
            throw new IllegalArgumentException("node " + id + " is not an execution node");
        }
        this.id = id;
        this.membership = membership;
        this.options = options;
        this.execution = new ExecutionStage(id, options, out, rules);
        this.checkpoints = new Checkpoints(membership, options);
        this.stateTransfer = new StateTransfer(id, membership, options, out);
        this.committed = new CommitVouches(membership);
    }

    @Override
    public int id() {
        return id;
    }

    /** The highest view in which this node saw a batch commit. */
    @Override
    public int view() {
        return view;
    }

    @Override
    public long lastExecuted() {
        return execution.lastExecuted();
    }

    @Override
    public int replyEntries() {
        return execution.replyEntries();
    }

    @Override
    public long stableCheckpoint() {
        return checkpoints.stableSeq();
    }

    @Override
    public long stableCheckpointBytes() {
        return execution.encodedBytes(checkpoints.stableSeq());
    }

    @Override
    public List<Output> onRequest(Request r) {
        if (!execution.answerDuplicate(r, view)) {
            out.drop(r, "execution nodes do not order requests; send them to the agreement nodes");
        }
        return out.drain();
    }

    @Override
    public List<Output> onMessage(Message m) {
        if (!membership.isNode(m.sender()) || m.sender() == id) {
            out.drop(m, "sender " + m.sender() + " is not another node of this group");
            return out.drain();
        }
        if (m instanceof CommittedBatch cb) {
            onCommittedBatch(cb);
        } else if (m instanceof Checkpoint c) {
            onCheckpoint(c);
        } else if (m instanceof FetchState fs) {
            StatusResponder.answer(fs, execution, checkpoints, out, id);
        } else if (m instanceof StateSnapshot s) {
            onSnapshot(s);
        } else if (m instanceof ForwardedRequests fw && membership.isAgreementNode(fw.sender())) {
            fw.requests().forEach(r -> execution.answerDuplicate(r, view));
        } else if (m instanceof Status st) {
            onStatus(st);
        } else {
            out.drop(m, "execution nodes do not take part in ordering");
        }
        return out.drain();
    }

    @Override
    public List<Output> onTick() {
        now++;
        stateTransfer.onTick(now);
        if (now - lastStatusTick >= options.statusPeriod()) {
            lastStatusTick = now;
            out.toAllNodes(new Status(view, checkpoints.stableSeq(), execution.lastExecuted(), id));
        }
        return out.drain();
    }

    @Override
    public List<Output> onExecuted(long seq, List<byte[]> results) {
        execution.executed(seq, results);
        return out.drain();
    }

    @Override
    public List<Output> onCheckpointState(long seq, byte[] applicationState) {
        execution.checkpointTaken(seq, applicationState).ifPresent(c -> {
            if (c.seq() > checkpoints.stableSeq()) {
                checkpoints.addOwn(c);
                out.toAllNodes(c);
                if (checkpoints.add(c)) {
                    onStable();
                }
            } else if (c.seq() == checkpoints.stableSeq() && c.state().equals(checkpoints.stableDigest())) {
                persistStableCheckpoint();
            }
        });
        return out.drain();
    }

    @Override
    public List<Output> onStateInstalled(long seq) {
        if (execution.installed(seq) != null) {
            stateTransfer.installed();
            if (seq == checkpoints.stableSeq()) {
                persistStableCheckpoint();
            }
            recovered.headMap(seq, true).clear();
            committed.discardUpTo(seq);
            out.add(new Output.StateTransferred(seq));
            executeReady();
        }
        return out.drain();
    }

    @Override
    public List<Output> onExecutionFailed(long seq) {
        if (execution.failed(seq)) {
            stateTransfer.lost(Math.max(seq, checkpoints.stableSeq()), now);
        }
        return out.drain();
    }

    private void onCommittedBatch(CommittedBatch cb) {
        if (cb.seq() <= execution.lastQueued()) {
            return;
        }
        if (cb.seq() > checkpoints.stableSeq() + 2L * options.watermarkWindow()) {
            out.drop(cb, "far beyond the stable checkpoint " + checkpoints.stableSeq());
            return;
        }
        String problem = committed.add(cb);
        if (problem != null) {
            out.drop(cb, problem);
            return;
        }
        executeReady();
    }

    /** Executes the next batches that f+1 agreement nodes vouch for. */
    private void executeReady() {
        while (!execution.installing() && !stateTransfer.installing()) {
            long next = execution.lastQueued() + 1;
            DurableRecord.CommittedRecord again = recovered.remove(next);
            CommittedBatch chosen = again != null
                    ? new CommittedBatch(again.view(), next, again.batch(), again.requests(), id)
                    : committed.decided(next);
            if (chosen == null) {
                return;
            }
            committed.discardUpTo(next);
            view = Math.max(view, chosen.view());
            out.add(new Output.Persist(new DurableRecord.CommittedRecord(next, chosen.view(), chosen.batch(),
                    chosen.requests())));
            execution.execute(next, view, chosen.requests(), chosen.batch().time());
            stateTransfer.caughtUp(next);
        }
    }

    /** Restart from the data directory: the checkpoint is installed, the batches executed after it run again. */
    @Override
    public List<Output> recover(DurableState state) {
        DurableRecord.CheckpointRecord cp = state.checkpoint();
        recovered.putAll(state.committed());
        view = state.view();
        if (cp != null) {
            checkpoints.adopt(cp.seq(), cp.digest(), cp.proof());
            byte[] bytes = cp.state();
            if (bytes != null) {
                stateTransfer.installingFromDisk(cp.seq());
                execution.install(CheckpointState.decode(bytes), bytes);
            } else {
                stateTransfer.need(cp.seq(), now);
            }
        }
        executeReady();
        return out.drain();
    }

    private void persistStableCheckpoint() {
        long s = checkpoints.stableSeq();
        out.add(new Output.Persist(new DurableRecord.CheckpointRecord(s, checkpoints.stableDigest(),
                checkpoints.stableProof(), execution.encodedState(s))));
    }

    private void onCheckpoint(Checkpoint c) {
        String problem = checkpoints.problem(c);
        if (problem != null) {
            out.drop(c, problem);
        } else if (checkpoints.add(c)) {
            onStable();
        }
    }

    private void onStable() {
        long s = checkpoints.stableSeq();
        persistStableCheckpoint();
        if (execution.lastQueued() < s) {
            stateTransfer.need(s, now);
        } else if (execution.stateLost()) {
            stateTransfer.needForExecution(s, now); // a newer state to install instead of the lost one
        }
        committed.discardUpTo(s);
        execution.collectGarbage(s);
    }

    private void onSnapshot(StateSnapshot snapshot) {
        StateTransfer.Accepted accepted = stateTransfer.accept(snapshot, checkpoints,
                execution.stateLost() ? execution.installableAbove() : execution.lastQueued());
        if (accepted != null) {
            if (!snapshot.proof().isEmpty()) {
                checkpoints.adopt(snapshot.seq(), accepted.digest(), snapshot.proof());
            }
            execution.install(accepted.state(), accepted.encoded());
        }
    }

    /**
     * A node stuck behind the stable checkpoint (the same status twice) gets its proof: agreement nodes need it to
     * move their watermarks, execution nodes to fetch the state.
     */
    private void onStatus(Status st) {
        Status previous = lastStatus.put(st.sender(), st);
        boolean stuck = previous != null && previous.stableSeq() == st.stableSeq();
        if (stuck && st.stableSeq() < checkpoints.stableSeq()) {
            checkpoints.stableProof().stream().filter(c -> c.sender() != st.sender()).forEach(c -> out.toNode(st.sender(), c));
        }
    }
}
