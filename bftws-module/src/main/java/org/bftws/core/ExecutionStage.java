package org.bftws.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns committed batches into executions, exactly once and in order within every client's sequence, keeps the
 * last-reply table, and assembles checkpoints. Shared by replicas that execute and by execution nodes.
 *
 * <p>One batch at a time: the next {@link Output.Execute} goes out only after the previous one's results (and a due
 * checkpoint's state) came back, so the last-reply table is exactly as of the checkpoint's sequence number and the
 * duplicate decisions for a batch see every earlier result.
 *
 * <p>With tentative execution (PBFT's, section 5.1 of Castro and Liskov), a replica runs the next batch once it is
 * prepared, when every earlier one is committed and executed, and replies tentatively; one such batch at a time.
 * When that sequence number commits with the same batch, the execution stands; when another batch commits there (a
 * view change re-proposed something else), it is undone through the service's own set_state: the newest checkpointed
 * state goes back in and the committed batches since are executed again. So tentative execution waits until this
 * node holds a checkpointed state (its first checkpoint), and keeps the committed batches executed since the newest.
 */
final class ExecutionStage {

    /** A batch to execute; {@code batch}, its digest, tells a tentative execution's batch from the committed one. */
    private record Ready(long seq, int view, List<Request> requests, long time, Digest batch) {
    }

    private final int id;
    private final ReplicaOptions options;
    private final Outbox out;
    private final SequenceRules rules;
    private ReplyTable replies = new ReplyTable();
    /** Last sequence number whose results were reported. */
    private long lastExecuted;
    /** Last sequence number accepted for execution. */
    private long lastQueued;
    private final ArrayDeque<Ready> queue = new ArrayDeque<>();
    private Ready running;
    /** The requests of {@link #running} that went to the service (duplicates and refusals taken out). */
    private List<Request> runningEffective;
    /** {@link #running} runs tentatively (its replies say so even if an installation undid it meanwhile). */
    private boolean runningTentative;
    /** The batch executed (or executing) tentatively and not settled yet, or null; at most one. */
    private Ready tentative;
    /** Sequences the tentative batch expired: reported once it stands (the adapter forgets their WS-RM state). */
    private List<String> tentativeExpired = List.of();
    /** Committed batches executed since the newest state in {@link #states}: what a rollback executes again. */
    private List<Ready> sinceState = new ArrayList<>();
    /** The installation running is a rollback of a tentative execution, not a state transfer. */
    private boolean rollingBack;
    private long checkpointDue = -1;
    /** Encoded checkpointed states this node took or installed, at or above the stable checkpoint. */
    private final TreeMap<Long, byte[]> states = new TreeMap<>();
    private CheckpointState installing;
    private byte[] installingEncoded;
    /**
     * The service's state is unknown since its set_state or get_state failed (-1: it is known): nothing executes
     * until a state at or above this sequence number is installed (see {@link #failed}).
     */
    private long lostAt = -1;

    ExecutionStage(int id, ReplicaOptions options, Outbox out, SequenceRules rules) {
        this.id = id;
        this.rules = rules;
        this.options = options;
        this.out = out;
    }

    long lastExecuted() {
        return lastExecuted;
    }

    int replyEntries() {
        return replies.size();
    }

    ReplyTable replyTable() {
        return replies.copy();
    }

    long lastQueued() {
        return lastQueued;
    }

    boolean installing() {
        return installing != null;
    }

    /** Whether the service's state is unknown (a set_state or get_state failed) and nothing executes. */
    boolean stateLost() {
        return lostAt >= 0;
    }

    /**
     * The lowest sequence number a state must be at for this node to take it: above what it executed, or, once its
     * state is lost, at or above where it was lost.
     */
    long installableAbove() {
        return lostAt >= 0 ? lostAt - 1 : lastExecuted;
    }

    /**
     * The service could not carry out the installation, the execution or the checkpoint at {@code seq} (its
     * set_state or get_state failed, or a batch could not be delivered): its state is unknown, so nothing executes
     * any more until a state at or above {@code seq} is installed.
     * The batches queued at or below {@code seq} are dropped (that state covers them), the later ones wait to run on
     * top of it. Returns false (after a drop) when no installation, execution or checkpoint of {@code seq} is running.
     */
    boolean failed(long seq) {
        boolean installation = installing != null && installing.seq() == seq;
        boolean execution = running != null && running.seq() == seq;
        if (!installation && !execution && checkpointDue != seq) {
            out.drop("failure at " + seq,
                    "no installation, execution or checkpoint of that sequence number is running");
            return false;
        }
        if (execution && running == tentative) {
            tentative = null; // undone with the rest: whatever state is installed next replaces it
            tentativeExpired = List.of();
        }
        running = null;
        runningEffective = null;
        lostAt = Math.max(lostAt, seq);
        installing = null;
        installingEncoded = null;
        rollingBack = false;
        checkpointDue = -1;
        queue.removeIf(r -> r.seq() <= seq);
        return true;
    }

    /**
     * Whether batch {@code seq} can be queued now: it is the next one, and lies above any state being installed (a
     * node whose executions fell behind installs a state below what it committed, and its agreement goes on meanwhile).
     */
    boolean canQueue(long seq) {
        return seq == lastQueued + 1 && (installing == null || seq > installing.seq());
    }

    /** Accepts committed batch {@code seq} (the next one), proposed at {@code time}, for execution. */
    void execute(long seq, int view, List<Request> batch, long time) {
        execute(seq, view, batch, time, null);
    }

    /** As {@link #execute(long, int, List, long)}, for a batch with digest {@code digest} (settles a tentative run). */
    void execute(long seq, int view, List<Request> batch, long time, Digest digest) {
        if (seq != lastQueued + 1 || (installing != null && seq <= installing.seq())) {
            throw new IllegalStateException("execution must be in order: queued up to " + lastQueued + ", got " + seq
                    + (installing != null ? ", installing " + installing.seq() : ""));
        }
        lastQueued = seq;
        queue.add(new Ready(seq, view, batch, time, digest));
        pump();
    }

    /**
     * Whether batch {@code seq} may run tentatively now: it is the next one, everything before it executed, nothing
     * else runs or waits, and a checkpointed state is here to roll back to.
     */
    boolean canRunTentatively(long seq) {
        return tentative == null && running == null && queue.isEmpty() && checkpointDue < 0 && installing == null
                && lostAt < 0 && seq == lastQueued + 1 && lastExecuted == lastQueued && !states.isEmpty();
    }

    /**
     * Runs prepared batch {@code seq} (digest {@code digest}) tentatively (see {@link #canRunTentatively}), unless it
     * ends a sequence: that makes the adapter forget the sequence's WS-RM state, which no rollback brings back.
     */
    void runTentativelyIfUndoable(long seq, int view, List<Request> batch, long time, Digest digest) {
        if (!canRunTentatively(seq)) {
            throw new IllegalStateException("batch " + seq + " cannot run tentatively now");
        }
        if (batch.stream().anyMatch(rules::terminates)) {
            return;
        }
        tentative = new Ready(seq, view, batch, time, digest);
        start(tentative);
    }

    private void pump() {
        while (running == null && checkpointDue < 0 && installing == null && lostAt < 0 && !queue.isEmpty()) {
            if (tentative != null && !settleTentative(queue.peek())) {
                return; // rolled back: the committed batches run again once the state is back
            }
            if (!queue.isEmpty() && checkpointDue < 0) {
                start(queue.poll());
            }
        }
    }

    /**
     * The committed batch {@code committed} is next and a tentative execution waits to be settled: it stands if it ran
     * this very batch (true), otherwise it is rolled back (false).
     */
    private boolean settleTentative(Ready committed) {
        Ready t = tentative;
        tentative = null;
        if (committed.seq() == t.seq() && t.batch().equals(committed.batch())) {
            queue.poll();
            if (!tentativeExpired.isEmpty()) {
                out.add(new Output.SequencesExpired(t.seq(), tentativeExpired));
            }
            tentativeExpired = List.of();
            out.add(new Output.TentativeSettled(t.seq(), true));
            executedCommitted(t);
            return true;
        }
        tentativeExpired = List.of();
        out.add(new Output.TentativeSettled(t.seq(), false));
        rollBack();
        return false;
    }

    /** Puts the newest checkpointed state back and queues the committed batches executed since, to run again. */
    private void rollBack() {
        java.util.Map.Entry<Long, byte[]> base = states.lastEntry();
        for (int i = sinceState.size() - 1; i >= 0; i--) {
            queue.addFirst(sinceState.get(i));
        }
        sinceState = new ArrayList<>();
        rollingBack = true;
        installing = CheckpointState.decode(base.getValue());
        installingEncoded = base.getValue();
        out.add(new Output.InstallState(base.getKey(), installing.applicationState()));
    }

    /** Whether the installation running undoes a tentative execution (then it is no state transfer). */
    boolean rollingBack() {
        return rollingBack;
    }

    private void start(Ready r) {
        boolean isTentative = r == tentative;
        // The batch's time first: sequences idle for longer than the limit expire before its requests are
        // judged, so a client coming back after the limit is refused in this very batch (at every executor).
        List<String> expired = replies.advance(r.time(), options.sequenceIdleLimit());
        if (isTentative) {
            tentativeExpired = expired;
        } else if (!expired.isEmpty()) {
            out.add(new Output.SequencesExpired(r.seq(), expired));
        }
        List<Request> effective = new ArrayList<>(r.requests().size());
        for (Request req : r.requests()) {
            long createdAt = rules.createdAt(req.id().client());
            switch (replies.verdict(req.id(), createdAt, options.sequenceIdleLimit())) {
                case EXECUTE -> {
                    replies.executing(req.id(), createdAt);
                    effective.add(req);
                }
                case DUPLICATE -> answerFromCache(req.id(), r.view(), isTentative);
                case ENDED -> answerEnded(req, r.view(), Reply.TERMINATED, isTentative);
                case EXPIRED -> answerEnded(req, r.view(), Reply.EXPIRED, isTentative);
                case NOT_YET_VALID -> answerEnded(req, r.view(), Reply.NOT_YET_VALID, isTentative);
                case OUT_OF_ORDER -> out.drop(req.id(), "ordered before its predecessor in its client's sequence; left for later");
            }
        }
        running = r;
        runningEffective = effective;
        runningTentative = isTentative;
        out.add(new Output.Execute(r.seq(), r.view(), effective, isTentative));
    }

    void executed(long seq, List<byte[]> results) {
        if (running == null || running.seq() != seq || runningEffective.size() != results.size()) {
            out.drop("results for " + seq, "no execution of that size is running");
            return;
        }
        Ready r = running;
        List<Request> effective = runningEffective;
        boolean isTentative = runningTentative;
        running = null;
        runningEffective = null;
        for (int i = 0; i < results.size(); i++) {
            Request req = effective.get(i);
            RequestId rid = req.id();
            if (rules.terminates(req)) {
                // The sequence's TerminateSequence, ordered like a request: every executor removes the entry here.
                // Its reply is the one a retransmission of it gets later too, so the client's vote always agrees.
                replies.end(rid.client(), rules.createdAt(rid.client()));
                out.toClient(rid.client(), new Reply(rid, r.view(), Reply.sequenceEnded(Reply.TERMINATED), id,
                        isTentative));
            } else {
                replies.executed(rid, results.get(i));
                out.toClient(rid.client(), new Reply(rid, r.view(), results.get(i), id, isTentative));
            }
        }
        if (installing != null) {
            return;
        }
        if (!isTentative) {
            executedCommitted(r);
        } // a tentative run stands or goes when its batch commits, maybe already queued: pump settles it
        pump();
    }

    /** Committed batch {@code r} executed: the node stands after it (and takes a checkpoint when one is due). */
    private void executedCommitted(Ready r) {
        sinceState.add(r);
        lastExecuted = r.seq();
        if (r.seq() % options.checkpointInterval() == 0) {
            checkpointDue = r.seq();
            out.add(new Output.TakeCheckpoint(r.seq()));
        }
    }

    /**
     * A client's request that is already executed, or on a sequence that ended: true when so (and its cached reply,
     * or the refusal, was sent).
     */
    boolean answerDuplicate(Request r, int view) {
        String client = r.id().client();
        // While a tentative execution is unsettled, the table holds its effects: an answer they may have decided is
        // tentative too, in the view the batch prepared in: a cached reply of a client the batch holds, and an expiry
        // (the batch moved the agreed time). An ended sequence is committed state: no batch that ends one runs
        // tentatively.
        boolean unsettled = tentative != null;
        boolean ofTentativeClient = unsettled && tentative.requests().stream().anyMatch(q -> q.id().client().equals(client));
        int tentativeView = unsettled ? tentative.view() : view;
        switch (replies.verdict(r.id(), rules.createdAt(client), options.sequenceIdleLimit())) {
            case DUPLICATE -> answerFromCache(r.id(), ofTentativeClient ? tentativeView : view, ofTentativeClient);
            case ENDED -> answerEnded(r, view, Reply.TERMINATED, false);
            // Expired stays expired as the agreed time grows, so this answer is the one the ordered execution gives.
            // NOT_YET_VALID does not (the agreed time may reach the creation time): only the ordered execution says.
            case EXPIRED -> answerEnded(r, tentativeView, Reply.EXPIRED, unsettled);
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * A request on a sequence that ended, expired or is not valid yet: refused with the same result at every correct
     * executor, not executed. A TerminateSequence on a sequence that is gone (ended, or expired) is answered that it
     * ended whatever the reason, as the adapter answers it (a TerminateSequenceResponse): an ended record is dropped
     * once the sequence is older than the idle limit, after which the same retransmitted TerminateSequence would be
     * called expired, and executors on either side of that point in the order would split the client's vote for good
     * (simulator seeds 33346 and 77006, 2026-11-27).
     */
    private void answerEnded(Request r, int view, String why, boolean isTentative) {
        String answer = rules.terminates(r) && !why.equals(Reply.NOT_YET_VALID) ? Reply.TERMINATED : why;
        RequestId rid = r.id();
        out.toClient(rid.client(), new Reply(rid, view, Reply.sequenceEnded(answer), id, isTentative));
    }

    private void answerFromCache(RequestId rid, int view, boolean isTentative) {
        Optional<byte[]> cached = replies.cachedReply(rid);
        cached.ifPresent(reply -> out.toClient(rid.client(), new Reply(rid, view, reply, id, isTentative)));
    }

    /** The adapter's get_state result: returns this node's checkpoint message for it, or empty if unexpected. */
    Optional<Checkpoint> checkpointTaken(long seq, byte[] applicationState) {
        if (checkpointDue != seq) {
            out.drop("checkpoint state for " + seq, "no checkpoint of that sequence number is due");
            return Optional.empty();
        }
        checkpointDue = -1;
        byte[] encoded = new CheckpointState(seq, applicationState, replies.copy()).encode();
        states.put(seq, encoded);
        sinceState = new ArrayList<>();
        pump();
        return Optional.of(new Checkpoint(seq, Digest.of(encoded), id));
    }

    /** The encoded state at {@code seq}, if this node has it (to answer a fetch). */
    byte[] encodedState(long seq) {
        return states.get(seq);
    }

    /** Bytes of the encoded state at {@code seq}; -1 if this node does not have it. */
    long encodedBytes(long seq) {
        byte[] state = states.get(seq);
        return state == null ? -1 : state.length;
    }

    /**
     * Starts installing a verified stable checkpoint; the batches waiting for execution that it covers are dropped,
     * the later ones (a node whose executions, not its agreement, fell behind) run on top of it once installed.
     */
    void install(CheckpointState state, byte[] encoded) {
        if (tentative != null) {
            // the installed state replaces whatever the tentative execution did: it is undone with everything else
            out.add(new Output.TentativeSettled(tentative.seq(), false));
            tentative = null;
            tentativeExpired = List.of();
        }
        rollingBack = false;
        installing = state;
        installingEncoded = encoded;
        queue.removeIf(r -> r.seq() <= state.seq());
        out.add(new Output.InstallState(state.seq(), state.applicationState()));
    }

    /** set_state finished: the node now stands at the installed checkpoint. Returns its reply table, or null. */
    ReplyTable installed(long seq) {
        if (installing == null || installing.seq() != seq) {
            out.drop("state installed at " + seq, "no installation of that sequence number is running");
            return null;
        }
        replies = installing.replies().copy();
        lastExecuted = seq;
        lastQueued = Math.max(lastQueued, seq);
        running = null;
        runningEffective = null;
        checkpointDue = -1;
        states.put(seq, installingEncoded);
        sinceState = new ArrayList<>();
        installing = null;
        installingEncoded = null;
        rollingBack = false;
        lostAt = -1;
        return replies;
    }

    /** After an installation: runs the batches queued above the installed checkpoint, if any. */
    void resume() {
        pump();
    }

    /**
     * Forgets states older than the stable checkpoint, except the newest one: a node whose executions lag the stable
     * checkpoint may still roll a tentative execution back to it (simulator seed 24067, 2026-11-27).
     */
    void collectGarbage(long stableSeq) {
        if (lostAt >= 0 && stableSeq > lostAt) {
            // a lost state is replaced by a stable one at least this new: the batches it covers need not wait
            lostAt = stableSeq;
            queue.removeIf(r -> r.seq() <= stableSeq);
        }
        Long newest = states.isEmpty() ? null : states.lastKey();
        states.headMap(stableSeq, false).keySet().removeIf(seq -> !seq.equals(newest));
    }
}
