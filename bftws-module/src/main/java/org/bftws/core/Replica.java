package org.bftws.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * An agreement node (Configuration I and II nodes, III's agreement nodes): PBFT's normal case, batching, watermarks,
 * checkpoints, state transfer and view changes (Castro and Liskov, OSDI 1999), as a deterministic state machine.
 * Nodes that also execute hand committed batches to an {@link ExecutionStage}; in Configuration III committed batches
 * go to the execution nodes instead. See docs/protocol.md.
 */
public final class Replica implements Node {

    /** Messages for a view this node has not entered yet, kept until it does. */
    private static final int FUTURE_LIMIT = 4096;

    private final int id;
    final Membership membership;
    final ReplicaOptions options;
    final Outbox out = new Outbox();
    final RequestStore requests;
    final OrderingLog log = new OrderingLog();
    final Checkpoints checkpoints;
    private final ExecutionStage execution;
    private final StateTransfer stateTransfer;
    private final ViewChangeProtocol viewChanges;
    private final StatusResponder status;
    private final CommitVouches vouches;
    private final ArrayDeque<Message> future = new ArrayDeque<>();

    long now;
    private int view;
    boolean viewChanging;
    /** Every sequence number up to this one committed here and was processed in order. */
    long lastCommitted;
    /** The primary's next sequence number to assign. */
    private long nextSeq = 1;
    /** When this node last saw a request commit: the view-change timer counts from here. */
    private long lastProgressTick;
    private long lastStatusTick;
    /**
     * Re-proposals of the installed view that this node had committed before it entered the view: their prepares
     * wait until the view has made progress here (see {@link #enterView}), or a status period passed.
     */
    private final List<Slot> deferredPrepares = new ArrayList<>();
    /** The highest re-proposed sequence number of the installed view, and when this node entered it. */
    private long reproposedUpTo;
    private long viewEnteredTick;

    public Replica(int id, Membership membership, ReplicaOptions options) {
        if (!membership.isAgreementNode(id)) {
            throw new IllegalArgumentException("node " + id + " does not order requests");
        }
        this.id = id;
        this.membership = membership;
        this.options = options;
        this.requests = new RequestStore(options.maxPendingPerClient());
        this.checkpoints = new Checkpoints(membership, options);
        this.execution = membership.isExecutor(id) ? new ExecutionStage(id, options, out) : null;
        this.stateTransfer = new StateTransfer(id, membership, options, out);
        this.viewChanges = new ViewChangeProtocol(this, membership, options, checkpoints);
        this.status = new StatusResponder(this);
        this.vouches = new CommitVouches(membership);
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

    @Override
    public long stableCheckpoint() {
        return checkpoints.stableSeq();
    }

    // ------------------------------------------------------------------------------------------------ inputs

    @Override
    public List<Output> onRequest(Request r) {
        if (execution != null && execution.answerDuplicate(r, view)) {
            return out.drain();
        }
        admit(r, true);
        return out.drain();
    }

    @Override
    public List<Output> onMessage(Message m) {
        handle(m);
        return out.drain();
    }

    private void handle(Message m) {
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
            onPrePrepare(pp);
        } else if (m instanceof Prepare p) {
            onPrepare(p);
        } else if (m instanceof Commit c) {
            onCommit(c);
        } else if (m instanceof Checkpoint c) {
            onCheckpoint(c);
        } else if (m instanceof ViewChange vc) {
            viewChanges.onViewChange(vc);
        } else if (m instanceof NewView nv) {
            viewChanges.onNewView(nv);
        } else if (m instanceof FetchRequests fr) {
            onFetchRequests(fr);
        } else if (m instanceof ForwardedRequests fw) {
            fw.requests().forEach(r -> admit(r, false));
        } else if (m instanceof FetchState fs) {
            status.answerFetchState(fs, execution);
        } else if (m instanceof StateSnapshot s) {
            onSnapshot(s);
        } else if (m instanceof Status st) {
            status.onStatus(st);
        } else if (m instanceof CommittedBatch cb) {
            onCommittedBatch(cb);
        } else {
            out.drop(m, "not a message for an agreement node");
        }
    }

    @Override
    public List<Output> onTick() {
        now++;
        viewChanges.onTick();
        if (!viewChanging && !stateTransfer.active()) {
            OptionalLong oldest = requests.oldestWaitingTick();
            if (oldest.isPresent() && now - Math.max(oldest.getAsLong(), lastProgressTick) >= viewChanges.timeout()) {
                viewChanges.start(view + 1, "a request waited " + viewChanges.timeout() + " ticks without progress"
                        + " (it arrived " + (now - oldest.getAsLong()) + " ticks ago, the last commit was "
                        + (now - lastProgressTick) + " ticks ago)");
            }
        }
        tryPropose();
        retryBodyFetches();
        sendDeferredPrepares();
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

    @Override
    public List<Output> onExecuted(long seq, List<byte[]> results) {
        if (execution == null) {
            out.drop("results for " + seq, "this node does not execute");
        } else {
            execution.executed(seq, results);
            sendDeferredPrepares();
        }
        return out.drain();
    }

    @Override
    public List<Output> onCheckpointState(long seq, byte[] applicationState) {
        if (execution == null) {
            out.drop("checkpoint state for " + seq, "this node does not execute");
            return out.drain();
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
        return out.drain();
    }

    @Override
    public List<Output> onStateInstalled(long seq) {
        if (execution == null) {
            out.drop("state installed at " + seq, "this node does not execute");
            return out.drain();
        }
        ReplyTable table = execution.installed(seq);
        if (table != null) {
            finishStateTransfer(seq, table);
        }
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

    // ------------------------------------------------------------------------------------------------ requests

    /** A client request, sent by the client ({@code direct}) or relayed by a node with the client's signature. */
    private void admit(Request r, boolean direct) {
        RequestStore.Admission a = requests.add(r, now);
        switch (a) {
            case NEW, KNOWN -> bodyArrived(r.digest());
            case DUPLICATE -> {
                if (requests.addAwaitedBody(r)) {
                    bodyArrived(r.digest());
                } else if (direct && membership.hasExecutionOnlyNodes()) {
                    out.toExecutionNodes(new ForwardedRequests(List.of(r), id));
                }
            }
            case TOO_FAR_AHEAD -> out.drop(r, "too far ahead of its client's last ordered request");
            case TOO_MANY_VARIANTS -> out.drop(r, "its client sent too many different requests with this id");
        }
        tryPropose();
    }

    private void bodyArrived(Digest d) {
        for (long seq : requests.arrived(d)) {
            Slot s = log.get(seq);
            if (s != null && s.prePrepare != null && s.view == view) {
                sendPrepareIfReady(s);
                checkPrepared(s);
            }
        }
        advanceCommitted();
    }

    private void onFetchRequests(FetchRequests fr) {
        List<Request> found = new ArrayList<>();
        for (Digest d : fr.digests()) {
            Request body = requests.body(d);
            if (body != null && found.size() < 2 * options.batchMaxSize()) {
                found.add(body);
            }
        }
        if (!found.isEmpty()) {
            out.toNode(fr.sender(), new ForwardedRequests(found, id));
        }
    }

    /** Bodies asked for and still missing after the fetch timeout are asked from every agreement node. */
    private void retryBodyFetches() {
        if (!requests.awaitsBodies()) {
            return; // the common case: nothing to scan on every tick
        }
        for (Slot s : log.above(checkpoints.stableSeq())) {
            if (s.bodiesAskedAt >= 0 && now - s.bodiesAskedAt >= options.fetchTimeout() && s.wantedBatch() != null) {
                s.bodiesAskedAt = -1;
                haveBodies(s, -1);
            } else if (s.bodiesAskedAt < 0 && s.bodiesMissingSince >= 0 && s.prePrepare != null && s.view == view) {
                sendPrepareIfReady(s); // asks the primary once the grace for the client's own copy is over
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ normal case

    /** The primary proposes batches while the window, the in-flight bound and the batching rule allow. */
    private void tryPropose() {
        while (isPrimary() && !viewChanging && !stateTransfer.active()
                && nextSeq <= checkpoints.stableSeq() + options.watermarkWindow()
                && nextSeq - 1 - lastCommitted < options.maxBatchesInFlight()) {
            int eligible = requests.eligibleCount(options.batchMaxSize());
            if (eligible == 0) {
                return;
            }
            if (eligible < options.batchMaxSize() && options.batchDelayTicks() > 0
                    && now - requests.oldestEligibleTick().orElse(now) < options.batchDelayTicks()) {
                return;
            }
            PrePrepare pp = new PrePrepare(view, nextSeq++, requests.nextBatch(options.batchMaxSize()), id);
            Slot s = log.slot(pp.seq());
            s.enterView(view);
            s.prePrepare = pp;
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
        if (msgView < view) {
            return false;
        }
        if (msgView > view) {
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

    private void onPrePrepare(PrePrepare pp) {
        if (pp.sender() != membership.primary(pp.view())) {
            out.drop(pp, "not from the primary of view " + pp.view());
            return;
        }
        if (!current(pp, pp.view(), pp.seq())) {
            return;
        }
        Batch b = pp.batch();
        if (b.isNull() || b.size() > options.batchMaxSize() || b.hasDuplicateIds()) {
            out.drop(pp, "malformed batch");
            return;
        }
        Slot s = log.slot(pp.seq());
        s.enterView(view);
        if (s.prePrepare != null) {
            if (!s.prePrepare.digest().equals(pp.digest())) {
                // Two signed pre-prepares for one slot: proof that the primary equivocates. Keep it: if 2f+1
                // others committed this one, this node learns the decision from their commits.
                out.drop(pp, "the primary sent a different pre-prepare for this sequence number");
                s.otherPrePrepares.putIfAbsent(pp.digest(), pp);
                viewChanges.start(view + 1, "the primary sent two different pre-prepares for " + pp.seq());
                checkCommitted(s);
            }
            return;
        }
        if (s.committed && !s.committedBatch.digest().equals(pp.digest())) {
            out.drop(pp, "contradicts the batch committed at this sequence number");
            return;
        }
        s.prePrepare = pp;
        sendPrepareIfReady(s);
        checkPrepared(s);
        checkCommitted(s);
    }

    /** A backup prepares only requests it holds: then a prepared batch can always be executed. */
    private void sendPrepareIfReady(Slot s) {
        if (s.prepareSent) {
            return;
        }
        if (isPrimary()) {
            // A new primary re-proposes batches that others prepared; it may never have received their requests
            // (it was down, and their clients got their replies and stopped resending). Without the bodies it can
            // never prepare, so never commit, what it proposed itself: it fetches them like a backup would.
            haveBodies(s, -1);
            return;
        }
        if (!haveBodies(s, s.prePrepare.sender())) {
            return;
        }
        if (viewChanging) {
            return;
        }
        Prepare p = new Prepare(view, s.seq, s.prePrepare.digest(), id);
        s.prepares.put(id, p);
        s.prepareSent = true;
        out.toAgreementNodes(p);
    }

    private void onPrepare(Prepare p) {
        if (p.sender() == membership.primary(p.view())) {
            out.drop(p, "the primary does not prepare");
            return;
        }
        if (!current(p, p.view(), p.seq())) {
            return;
        }
        Slot s = log.slot(p.seq());
        s.enterView(view);
        Prepare earlier = s.prepares.putIfAbsent(p.sender(), p);
        if (earlier != null && !earlier.digest().equals(p.digest())) {
            out.drop(p, "node " + p.sender() + " already prepared another batch here");
            return;
        }
        checkPrepared(s);
    }

    /**
     * Whether the slot's wanted batch is all here; if not, asks {@code from} (or everyone, -1) for the rest. A backup
     * asks the primary only after {@link #fetchGrace}: the client sent its request to every replica, and its copy is
     * usually on the way when a fast primary's pre-prepare overtakes it (asking at once cost two more messages and a
     * second signature check for about one request in eight on a loaded testbed).
     */
    private boolean haveBodies(Slot s, int from) {
        List<Digest> missing = requests.awaitMissing(s.wantedBatch(), s.seq);
        if (missing.isEmpty()) {
            s.bodiesAskedAt = -1;
            s.bodiesMissingSince = -1;
            return true;
        }
        if (s.bodiesAskedAt < 0) {
            if (from >= 0 && from != id) {
                if (s.bodiesMissingSince < 0) {
                    s.bodiesMissingSince = now;
                }
                if (now - s.bodiesMissingSince < fetchGrace()) {
                    return false;
                }
                out.toNode(from, new FetchRequests(missing, id));
            } else {
                out.toAgreementNodes(new FetchRequests(missing, id));
            }
            s.bodiesAskedAt = now;
        }
        return false;
    }

    /** Ticks a backup waits for a client's own copy of a pre-prepared request before asking the primary. */
    private int fetchGrace() {
        return Math.max(1, options.fetchTimeout() / 20);
    }

    private void checkPrepared(Slot s) {
        if (viewChanging || s.prepared || s.prePrepare == null || !requests.hasAll(s.prePrepare.batch())) {
            return;
        }
        List<Prepare> matching = s.matchingPrepares();
        if (matching.size() < membership.prepareQuorum()) {
            return;
        }
        s.prepared = true;
        s.certificate = new PreparedCertificate(s.prePrepare, matching.subList(0, membership.prepareQuorum()));
        out.add(new Output.Persist(new DurableRecord.PreparedRecord(s.certificate, requests.bodiesOf(s.prePrepare.batch()))));
        Commit c = new Commit(view, s.seq, s.prePrepare.digest(), id);
        s.commits.put(id, c);
        s.commitSent = true;
        out.toAgreementNodes(c);
        checkCommitted(s);
    }

    private void onCommit(Commit c) {
        if (!current(c, c.view(), c.seq())) {
            return;
        }
        Slot s = log.slot(c.seq());
        s.enterView(view);
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
    private void checkCommitted(Slot s) {
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
        advanceCommitted();
    }

    /** A peer vouches that a batch committed: with f+1 matching vouches this node takes it as committed too. */
    private void onCommittedBatch(CommittedBatch cb) {
        long low = checkpoints.stableSeq();
        if (cb.seq() <= lastCommitted || cb.seq() > low + options.watermarkWindow()) {
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
        advanceCommitted();
    }

    /** Processes committed slots in sequence order: execution, forwarding, clients' progress. */
    private void advanceCommitted() {
        boolean progressed = false;
        while (!stateTransfer.installing()) {
            Slot s = log.get(lastCommitted + 1);
            if (s == null || !s.committed || !haveBodies(s, -1)) {
                break;
            }
            lastCommitted++;
            out.add(new Output.Committed(s.seq, view, s.committedBatch.digest()));
            List<Request> bodies = requests.bodiesOf(s.committedBatch);
            out.add(new Output.Persist(new DurableRecord.CommittedRecord(s.seq, view, s.committedBatch, bodies)));
            s.committedBatch.requests().forEach(r -> requests.committed(r.id()));
            if (execution != null) {
                execution.execute(s.seq, view, bodies);
            }
            if (membership.hasExecutionOnlyNodes()) {
                out.toExecutionNodes(new CommittedBatch(view, s.seq, s.committedBatch, bodies, id));
            }
            progressed |= !s.committedBatch.isNull();
        }
        stateTransfer.caughtUp(lastCommitted);
        if (progressed) {
            lastProgressTick = now;
            viewChanges.progress();
            sendDeferredPrepares();
        }
        nextSeq = Math.max(nextSeq, lastCommitted + 1);
        tryPropose();
    }

    // ------------------------------------------------------------------------------------------------ checkpoints

    private void onCheckpoint(Checkpoint c) {
        String problem = checkpoints.problem(c);
        if (problem != null) {
            out.drop(c, problem);
        } else if (checkpoints.add(c)) {
            onStable();
        }
    }

    /** A newer checkpoint is stable: catch up to it (from the log or by state transfer) and collect garbage. */
    void onStable() {
        long s = checkpoints.stableSeq();
        persistStableCheckpoint();
        advanceCommitted();
        if (lastCommitted < s) {
            stateTransfer.need(s, now);
        } else if (execution != null) {
            Digest own = checkpoints.ownDigest(s);
            if (own != null && !own.equals(checkpoints.stableDigest())) {
                out.add(new Output.Diverged(s, own, checkpoints.stableDigest()));
            }
        }
        log.discardUpTo(s);
        vouches.discardUpTo(s);
        requests.stopAwaitingUpTo(s);
        requests.collectGarbage(log.namedRequests());
        if (execution != null) {
            execution.collectGarbage(s);
        }
        nextSeq = Math.max(nextSeq, s + 1);
        tryPropose();
    }

    /** Records the stable checkpoint, with this node's encoded state for it when it has it. */
    private void persistStableCheckpoint() {
        long s = checkpoints.stableSeq();
        byte[] state = execution == null ? null : execution.encodedState(s);
        out.add(new Output.Persist(new DurableRecord.CheckpointRecord(s, checkpoints.stableDigest(),
                checkpoints.stableProof(), state)));
    }

    private void onSnapshot(StateSnapshot snapshot) {
        StateTransfer.Accepted accepted = stateTransfer.accept(snapshot, checkpoints, lastCommitted);
        if (accepted == null) {
            return;
        }
        if (!snapshot.proof().isEmpty() && checkpoints.adopt(snapshot.seq(), accepted.digest(), snapshot.proof())) {
            log.discardUpTo(snapshot.seq());
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
        lastCommitted = Math.max(lastCommitted, seq);
        requests.jumpTo(table);
        stateTransfer.installed();
        out.add(new Output.StateTransferred(seq));
        log.discardUpTo(seq);
        lastProgressTick = now;
        advanceCommitted();
    }

    // ------------------------------------------------------------------------------------------------ views

    /** Enters {@code newView} as a new-view (sent or accepted) says. */
    void enterView(int newView, NewViewPlan plan) {
        view = newView;
        deferredPrepares.clear();
        out.add(new Output.Persist(new DurableRecord.ViewRecord(newView)));
        // Still "changing" until the re-proposals are in place: nothing below may propose or prepare in between.
        viewChanging = true;
        out.add(new Output.ViewInstalled(newView, membership.primary(newView)));
        if (checkpoints.adopt(plan.minS(), plan.stableDigest(), plan.stableProof())) {
            onStable();
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
            if (pp.seq() > lastCommitted) {
                reproposed.add(pp.batch());
            }
        }
        requests.resetProposed(reproposed);
        nextSeq = Math.max(Math.max(plan.maxS(), lastCommitted), checkpoints.stableSeq()) + 1;
        lastProgressTick = now;
        viewEnteredTick = now;
        reproposedUpTo = plan.maxS();
        viewChanging = false;
        // Slots this node has not committed come first: the view's progress (the request a client waits for, above
        // the re-proposals) depends on them only. A backup prepares the re-proposals it committed already later,
        // once the view has made progress here: otherwise it signs a prepare for every slot of the log above the
        // stable checkpoint (up to a checkpoint interval of them) before the prepare that matters can leave, and its
        // peers verify them all first. They are still sent, for any node that did not commit those slots.
        for (PrePrepare pp : plan.prePrepares()) {
            Slot s = log.get(pp.seq());
            if (s != null && s.prePrepare == pp) {
                if (s.committed && !isPrimary()) {
                    deferredPrepares.add(s);
                    continue;
                }
                sendPrepareIfReady(s);
                checkPrepared(s);
            }
        }
        replayFutureMessages();
        tryPropose();
    }

    /**
     * Sends the prepares {@link #enterView} held back, once this node executed beyond the re-proposals (the new
     * view works, and the client waiting for that request has its reply) or a status period after entering the
     * view, whichever comes first: the timer keeps it live when no request follows the view change.
     */
    private void sendDeferredPrepares() {
        if (deferredPrepares.isEmpty() || viewChanging
                || (lastExecuted() <= reproposedUpTo && now - viewEnteredTick < options.statusPeriod())) {
            return;
        }
        List<Slot> slots = new ArrayList<>(deferredPrepares);
        deferredPrepares.clear();
        for (Slot s : slots) {
            if (s.view == view && s.prePrepare != null && log.get(s.seq) == s) {
                sendPrepareIfReady(s);
                checkPrepared(s);
            }
        }
    }

    private void replayFutureMessages() {
        List<Message> early = new ArrayList<>(future);
        future.clear();
        for (Message m : early) {
            handle(m);
        }
    }

    /** One line on where this node stands, for logs and stuck-schedule reports. */
    public String describe() {
        return "view " + view + (viewChanging ? " (changing to " + viewChanges.targetView() + ")" : "")
                + ", committed " + lastCommitted + ", executed " + lastExecuted() + ", stable " + checkpoints.stableSeq()
                + ", next proposal " + nextSeq + ", waiting requests " + requests.waitingCount()
                + ", oldest waiting since tick " + requests.oldestWaitingTick() + " (now " + now + ", timeout "
                + viewChanges.timeout() + ")" + (stateTransfer.active() ? ", fetching state" : "");
    }

    // ------------------------------------------------------------------------------------------------ for StatusResponder

    ViewChangeProtocol viewChanges() {
        return viewChanges;
    }
}
