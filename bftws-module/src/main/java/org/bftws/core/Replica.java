package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * An agreement node (Configuration I and II nodes, III's agreement nodes): PBFT's normal case, batching, watermarks,
 * checkpoints, state transfer and view changes (Castro and Liskov, OSDI 1999), as a deterministic state machine.
 * This class takes the inputs and keeps the view and the committed prefix; {@link NormalCase} runs pre-prepare,
 * prepare and commit, {@link ViewChangeProtocol} view changes, {@link Checkpoints} and {@link StateTransfer} the rest.
 * Nodes that also execute hand committed batches to an {@link ExecutionStage}; in Configuration III committed batches
 * go to the execution nodes instead. See docs/protocol.md.
 */
public final class Replica implements Node {

    private final int id;
    final Membership membership;
    final ReplicaOptions options;
    final SequenceRules rules;
    final Outbox out = new Outbox();
    final RequestStore requests;
    final BatchPacing pacing;
    final OrderingLog log = new OrderingLog();
    final Checkpoints checkpoints;
    final RequestClaims claims;
    final LocalAdmissions admissions;
    private final ExecutionStage execution;
    private final StateTransfer stateTransfer;
    private final ViewChangeProtocol viewChanges;
    private final StatusResponder status;
    private final NormalCase normal;
    private final RequestIntake intake;
    final ClaimProtocol claimProtocol;
    private final CheckpointFlow checkpointFlow;
    private final DeferredPrepares deferredPrepares;

    long now;
    /** This node's wall clock as the adapter last reported it ({@link #onClock}), in ms. */
    long clockMillis;
    private int view;
    boolean viewChanging;
    /** Every sequence number up to this one committed here and was processed in order. */
    long lastCommitted;
    /** The primary's next sequence number to assign. */
    long nextSeq = 1;
    /** When this node last saw a request commit: the view-change timer counts from here. */
    long lastProgressTick;
    private long lastStatusTick;

    public Replica(int id, Membership membership, ReplicaOptions options) {
        this(id, membership, options, client -> false);
    }

    /**
     * @param gatedClient whether a client (sequence) id carries requests that need this node's own admission before
     *                    it votes for them: a caller group's virtual sequence (paper 3.4); see {@link LocalAdmissions}
     */
    public Replica(int id, Membership membership, ReplicaOptions options, java.util.function.Predicate<String> gatedClient) {
        this(id, membership, options, gatedClient, SequenceRules.NONE);
    }

    /** @param rules which requests end their client's sequence ({@link SequenceRules}) */
    public Replica(int id, Membership membership, ReplicaOptions options, java.util.function.Predicate<String> gatedClient,
                   SequenceRules rules) {
        if (!membership.isAgreementNode(id)) {
            throw new IllegalArgumentException("node " + id + " does not order requests");
        }
        this.id = id;
        this.membership = membership;
        this.options = options;
        this.rules = rules;
        this.requests = new RequestStore(options.maxPendingPerClient(), options.sequenceIdleLimit(), rules);
        this.pacing = new BatchPacing(options.clientWaitTicks());
        this.checkpoints = new Checkpoints(membership, options);
        this.claims = new RequestClaims(membership, id);
        this.admissions = new LocalAdmissions(gatedClient, claims);
        this.execution = membership.isExecutor(id) ? new ExecutionStage(id, options, out, rules) : null;
        this.stateTransfer = new StateTransfer(id, membership, options, out);
        this.viewChanges = new ViewChangeProtocol(this, membership, options, checkpoints);
        this.status = new StatusResponder(this);
        this.normal = new NormalCase(this);
        this.intake = new RequestIntake(this, normal);
        this.claimProtocol = new ClaimProtocol(this, claims, normal, intake);
        this.checkpointFlow = new CheckpointFlow(this, execution, stateTransfer, normal);
        this.deferredPrepares = new DeferredPrepares(this, normal);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int view() {
        return view;
    }

    public boolean isViewChanging() {
        return viewChanging;
    }

    public boolean isPrimary() {
        return membership.primary(view) == id;
    }

    @Override
    public long lastExecuted() {
        return execution != null ? execution.lastExecuted() : lastCommitted;
    }

    /** A copy of this node's last-reply table (null when it does not execute); for tests. */
    ReplyTable replyTable() {
        return execution == null ? null : execution.replyTable();
    }

    @Override
    public int replyEntries() {
        return execution == null ? -1 : execution.replyEntries();
    }

    @Override
    public long stableCheckpoint() {
        return checkpoints.stableSeq();
    }

    @Override
    public long stableCheckpointBytes() {
        return execution == null ? -1 : execution.encodedBytes(checkpoints.stableSeq());
    }

    // ------------------------------------------------------------------------------------------------ inputs

    @Override
    public List<Output> onRequest(Request r) {
        if (execution != null && execution.answerDuplicate(r, view)) {
            // Answered from the table, but a slot this node has not executed yet may still wait for these bytes: a
            // lagging node whose table already calls the sequence gone (expired at an earlier batch) otherwise never
            // takes the body of its committed batch and stays behind for good (simulator seed 176918, 2026-11-27).
            if (requests.addAwaitedBody(r)) {
                normal.bodyArrived(r.digest());
            }
            return out.drain();
        }
        intake.admit(r, true);
        return out.drain();
    }

    @Override
    public List<Output> onMessage(Message m) {
        handle(m);
        runTentatively();
        return out.drain();
    }

    private void handle(Message m) {
        if (m.sender() == id && m instanceof ViewChange own) {
            viewChanges.onOwnViewChange(own);
            return;
        }
        if (!membership.isNode(m.sender()) || m.sender() == id) {
            out.drop(m, "sender " + m.sender() + " is not another node of this group");
            return;
        }
        if (!membership.isAgreementNode(m.sender()) && !(m instanceof Checkpoint || m instanceof Status
                || m instanceof FetchState || m instanceof StateSnapshot)) {
            out.drop(m, "an execution node does not send this");
            return;
        }
        if (m instanceof PrePrepare pp) {
            normal.onPrePrepare(pp);
        } else if (m instanceof Prepare p) {
            normal.onPrepare(p);
        } else if (m instanceof Commit c) {
            normal.onCommit(c);
        } else if (m instanceof Checkpoint c) {
            checkpointFlow.onCheckpoint(c);
        } else if (m instanceof ViewChange vc) {
            viewChanges.onViewChange(vc);
        } else if (m instanceof NewView nv) {
            viewChanges.onNewView(nv);
        } else if (m instanceof FetchRequests fr) {
            normal.onFetchRequests(fr);
        } else if (m instanceof ForwardedRequests fw) {
            fw.requests().forEach(r -> intake.admit(r, false));
        } else if (m instanceof FetchState fs) {
            status.answerFetchState(fs, execution);
        } else if (m instanceof StateSnapshot s) {
            checkpointFlow.onSnapshot(s);
        } else if (m instanceof Status st) {
            status.onStatus(st);
        } else if (m instanceof CommittedBatch cb) {
            normal.onCommittedBatch(cb);
        } else if (m instanceof Claim c) {
            claimProtocol.onClaim(c);
        } else if (m instanceof SignedClaim sc) {
            claimProtocol.onSignedClaim(sc);
        } else {
            out.drop(m, "not a message for an agreement node");
        }
    }

    @Override
    public List<Output> onClock(long wallMillis) {
        clockMillis = wallMillis;
        return out.drain();
    }

    @Override
    public List<Output> onTick() {
        now++;
        viewChanges.onTick();
        claimProtocol.onTick();
        if (!viewChanging && !stateTransfer.holdsAgreement()) {
            OptionalLong oldest = earliest(requests.oldestWaitingTick(claimProtocol::waitingSince),
                    log.oldestUncommitted(lastCommitted, view));
            if (oldest.isPresent() && now - Math.max(oldest.getAsLong(), lastProgressTick) >= viewChanges.timeout()) {
                viewChanges.start(view + 1, "a request waited " + viewChanges.timeout() + " ticks without progress"
                        + " (it arrived " + (now - oldest.getAsLong()) + " ticks ago, the last commit was "
                        + (now - lastProgressTick) + " ticks ago)");
            }
        }
        normal.tryPropose();
        normal.retryBodyFetches();
        deferredPrepares.sendIfDue();
        stateTransfer.onTick(now);
        if (now - lastStatusTick >= options.statusPeriod()) {
            lastStatusTick = now;
            out.toAllNodes(viewChanging
                    ? new Status(view, true, checkpoints.stableSeq(), lastExecuted(), id, viewChanges.targetView(),
                            viewChanges.holders())
                    : new Status(view, checkpoints.stableSeq(), lastExecuted(), id));
        }
        return out.drain();
    }

    private static OptionalLong earliest(OptionalLong a, OptionalLong b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : OptionalLong.of(Math.min(a.getAsLong(), b.getAsLong()));
    }

    @Override
    public List<Output> onExecuted(long seq, List<byte[]> results) {
        if (execution == null) {
            out.drop("results for " + seq, "this node does not execute");
        } else {
            execution.executed(seq, results);
            stateTransfer.caughtUp(lastCommitted, lastExecuted());
            deferredPrepares.sendIfDue();
            runTentatively();
        }
        return out.drain();
    }

    @Override
    public List<Output> onCheckpointState(long seq, byte[] applicationState) {
        checkpointFlow.onCheckpointState(seq, applicationState);
        runTentatively();
        return out.drain();
    }

    @Override
    public List<Output> onStateInstalled(long seq) {
        checkpointFlow.onStateInstalled(seq);
        runTentatively();
        return out.drain();
    }

    @Override
    public List<Output> onExecutionFailed(long seq) {
        checkpointFlow.onExecutionFailed(seq);
        return out.drain();
    }

    /**
     * Restart from the data directory: the stable checkpoint is installed (or fetched, if this node did not hold its
     * state), the batches committed after it are executed again, the prepared certificates are back for view changes,
     * and the node moves to the view after the highest one it announced: it never votes again in a view it may
     * already have voted in. Call once, on a fresh node, before any other input.
     */
    @Override
    public List<Output> recover(DurableState state) {
        if (state.isEmpty()) {
            return out.drain();
        }
        view = state.view();
        DurableRecord.CheckpointRecord cp = state.checkpoint();
        if (cp != null) {
            checkpoints.adopt(cp.seq(), cp.digest(), cp.proof());
            nextSeq = cp.seq() + 1;
            if (cp.state() != null) {
                lastCommitted = cp.seq();
            }
        }
        state.prepared().values().forEach(p -> {
            Slot s = log.slot(p.certificate().seq());
            s.certificate = p.certificate();
            p.requests().forEach(requests::addBody);
        });
        state.committed().values().forEach(c -> {
            Slot s = log.slot(c.seq());
            s.committed = true;
            s.committedBatch = c.batch();
            c.requests().forEach(requests::addBody);
        });
        if (cp != null) {
            byte[] bytes = cp.state();
            if (bytes == null) {
                // Not even the clients' progress is here (agreement-only nodes keep no state): fetch the checkpoint.
                stateTransfer.need(cp.seq(), now);
            } else if (execution != null) {
                stateTransfer.installingFromDisk(cp.seq());
                execution.install(CheckpointState.decode(bytes), bytes);
            } else {
                requests.jumpTo(CheckpointState.decode(bytes).replies());
            }
        }
        viewChanges.start(view + 1, "restarted from its data directory");
        advanceCommitted();
        return out.drain();
    }

    // ------------------------------------------------------------------------------------------------ committed
    // (pre-prepare, prepare and commit: NormalCase)

    /** Processes committed slots in sequence order: execution, forwarding, clients' progress. */
    void advanceCommitted() {
        boolean progressed = false;
        while (!stateTransfer.installing() || (execution != null && execution.canQueue(lastCommitted + 1))) {
            Slot s = log.get(lastCommitted + 1);
            if (s == null || !s.committed || !normal.haveBodies(s, -1)) {
                break;
            }
            lastCommitted++;
            out.add(new Output.Committed(s.seq, view, s.committedBatch.digest()));
            List<Request> bodies = requests.bodiesOf(s.committedBatch);
            out.add(new Output.Persist(new DurableRecord.CommittedRecord(s.seq, view, s.committedBatch, bodies)));
            List<String> expired = requests.advance(s.committedBatch.time());
            if (execution == null && !expired.isEmpty()) {
                out.add(new Output.SequencesExpired(s.seq, expired)); // executors report it when they execute
            }
            if (s.prePreparedAt >= 0) {
                pacing.ordered(now - s.prePreparedAt);
            }
            for (Request r : bodies) {
                requests.committed(r.id(), rules.terminates(r));
                claims.ordered(r.id());
                pacing.committed(r.id().client(), now);
            }
            if (execution != null) {
                execution.execute(s.seq, view, bodies, s.committedBatch.time(), s.committedBatch.digest());
            }
            if (membership.hasExecutionOnlyNodes()) {
                out.toExecutionNodes(new CommittedBatch(view, s.seq, s.committedBatch, bodies, id));
            }
            progressed |= !s.committedBatch.isNull();
        }
        stateTransfer.caughtUp(lastCommitted, lastExecuted());
        if (progressed) {
            lastProgressTick = now;
            viewChanges.progress();
            deferredPrepares.sendIfDue();
        }
        nextSeq = Math.max(nextSeq, lastCommitted + 1);
        normal.tryPropose();
    }

    /**
     * With tentative execution: runs the next batch once it is prepared in this view, if everything before it is
     * committed and executed (PBFT's tentative execution; {@link ExecutionStage} settles it when the slot commits).
     * Not during a view change or a state transfer: a prepared certificate of an old view may yet lose to another.
     */
    private void runTentatively() {
        if (execution == null || !options.tentativeExecution() || viewChanging || stateTransfer.active()) {
            return;
        }
        long seq = lastCommitted + 1;
        Slot s = log.get(seq);
        if (s == null || !s.prepared || s.committed || s.view != view || s.prePrepare == null
                || !execution.canRunTentatively(seq) || !requests.hasAll(s.prePrepare.batch())) {
            return;
        }
        Batch b = s.prePrepare.batch();
        execution.runTentativelyIfUndoable(seq, view, requests.bodiesOf(b), b.time(), b.digest());
    }

    /** Whether this node is fetching a stable checkpoint: the primary proposes nothing meanwhile. */
    boolean stateTransferActive() {
        return stateTransfer.holdsAgreement();
    }

    // ------------------------------------------------------------------------------------------------ views

    /** Enters {@code newView} as a new-view (sent or accepted) says. */
    void enterView(int newView, NewViewPlan plan) {
        view = newView;
        out.add(new Output.Persist(new DurableRecord.ViewRecord(newView)));
        // Still "changing" until the re-proposals are in place: nothing below may propose or prepare in between.
        viewChanging = true;
        out.add(new Output.ViewInstalled(newView, membership.primary(newView)));
        if (checkpoints.adopt(plan.minS(), plan.stableDigest(), plan.stableProof())) {
            checkpointFlow.onStable();
        }
        log.discardUncommittedAbove(plan.maxS());
        List<Batch> reproposed = new ArrayList<>();
        for (PrePrepare pp : plan.prePrepares()) {
            if (pp.seq() <= checkpoints.stableSeq()) {
                continue;
            }
            Slot s = log.slot(pp.seq());
            s.enterView(newView);
            if (s.committed && !s.committedBatch.digest().equals(pp.digest())) {
                out.drop(pp, "new view contradicts a committed batch (more than f faulty nodes?)");
                continue;
            }
            s.prePrepare = pp;
            s.acceptedAt = now;
            s.reproposal = true;
            if (pp.seq() > lastCommitted) {
                reproposed.add(pp.batch());
            }
        }
        requests.resetProposed(reproposed);
        nextSeq = Math.max(Math.max(plan.maxS(), lastCommitted), checkpoints.stableSeq()) + 1;
        lastProgressTick = now;
        deferredPrepares.viewEntered(plan.maxS(), now);
        viewChanging = false;
        // Slots this node has not committed come first; a backup prepares those it committed later (DeferredPrepares)
        for (PrePrepare pp : plan.prePrepares()) {
            Slot s = log.get(pp.seq());
            if (s != null && s.prePrepare == pp) {
                if (s.committed && !isPrimary()) {
                    deferredPrepares.defer(s);
                    continue;
                }
                normal.sendPrepareIfReady(s);
                normal.checkPrepared(s);
            }
        }
        replayFutureMessages();
        normal.tryPropose();
    }

    private void replayFutureMessages() {
        for (Message m : normal.takeEarlyMessages()) {
            handle(m);
        }
    }

    /** One line on where this node stands, for logs and stuck-schedule reports. */
    public String describe() {
        return "view " + view + (viewChanging ? " (changing to " + viewChanges.targetView() + ")" : "")
                + ", committed " + lastCommitted + ", executed " + lastExecuted() + ", stable " + checkpoints.stableSeq()
                + ", next proposal " + nextSeq + ", waiting requests " + requests.waitingCount()
                 + ", oldest waiting since tick " + requests.oldestWaitingTick(claimProtocol::waitingSince) + " (now " + now + ", timeout "
                + viewChanges.timeout() + ")" + (stateTransfer.active() ? ", fetching state" : "")
                + ", slot " + (lastCommitted + 1) + ": " + slotState(log.get(lastCommitted + 1));
    }

    private String slotState(Slot s) {
        if (s == null) {
            return "empty";
        }
        if (s.committed) {
            return "committed, waiting for request bodies";
        }
        return (s.prePrepare == null ? "no pre-prepare" : "pre-prepared in view " + s.view) + ", "
                + s.prepares.size() + " prepares";
    }

    // ------------------------------------------------------------------------------------------------ for StatusResponder

    ViewChangeProtocol viewChanges() {
        return viewChanges;
    }
}
