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
 */
final class ExecutionStage {

    private record Ready(long seq, int view, List<Request> requests, long time) {
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
    private long checkpointDue = -1;
    /** Encoded checkpointed states this node took or installed, at or above the stable checkpoint. */
    private final TreeMap<Long, byte[]> states = new TreeMap<>();
    private CheckpointState installing;
    private byte[] installingEncoded;

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

    /**
     * Whether batch {@code seq} can be queued now: it is the next one, and lies above any state being installed (a
     * node whose executions fell behind installs a state below what it committed, and its agreement goes on meanwhile).
     */
    boolean canQueue(long seq) {
        return seq == lastQueued + 1 && (installing == null || seq > installing.seq());
    }

    /** Accepts committed batch {@code seq} (the next one), proposed at {@code time}, for execution. */
    void execute(long seq, int view, List<Request> batch, long time) {
        if (seq != lastQueued + 1 || (installing != null && seq <= installing.seq())) {
            throw new IllegalStateException("execution must be in order: queued up to " + lastQueued + ", got " + seq
                    + (installing != null ? ", installing " + installing.seq() : ""));
        }
        lastQueued = seq;
        queue.add(new Ready(seq, view, batch, time));
        pump();
    }

    private void pump() {
        while (running == null && checkpointDue < 0 && installing == null && !queue.isEmpty()) {
            Ready r = queue.poll();
            // The batch's time first: sequences idle for longer than the limit expire before its requests are
            // judged, so a client coming back after the limit is refused in this very batch (at every executor).
            List<String> expired = replies.advance(r.time(), options.sequenceIdleLimit());
            if (!expired.isEmpty()) {
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
                    case DUPLICATE -> answerFromCache(req.id(), r.view());
                    case ENDED -> answerEnded(req, r.view(), Reply.TERMINATED);
                    case EXPIRED -> answerEnded(req, r.view(), Reply.EXPIRED);
                    case NOT_YET_VALID -> answerEnded(req, r.view(), Reply.NOT_YET_VALID);
                    case OUT_OF_ORDER -> out.drop(req.id(), "ordered before its predecessor in its client's sequence; left for later");
                }
            }
            running = new Ready(r.seq(), r.view(), effective, r.time());
            out.add(new Output.Execute(r.seq(), r.view(), effective));
        }
    }

    void executed(long seq, List<byte[]> results) {
        if (running == null || running.seq() != seq || running.requests().size() != results.size()) {
            out.drop("results for " + seq, "no execution of that size is running");
            return;
        }
        Ready r = running;
        running = null;
        for (int i = 0; i < results.size(); i++) {
            Request req = r.requests().get(i);
            RequestId rid = req.id();
            if (rules.terminates(req)) {
                // The sequence's TerminateSequence, ordered like a request: every executor removes the entry here.
                // Its reply is the one a retransmission of it gets later too, so the client's vote always agrees.
                replies.end(rid.client(), rules.createdAt(rid.client()));
                out.toClient(rid.client(), new Reply(rid, r.view(), Reply.sequenceEnded(Reply.TERMINATED), id));
            } else {
                replies.executed(rid, results.get(i));
                out.toClient(rid.client(), new Reply(rid, r.view(), results.get(i), id));
            }
        }
        if (installing != null) {
            return;
        }
        lastExecuted = seq;
        if (seq % options.checkpointInterval() == 0) {
            checkpointDue = seq;
            out.add(new Output.TakeCheckpoint(seq));
        }
        pump();
    }

    /**
     * A client's request that is already executed, or on a sequence that ended: true when so (and its cached reply,
     * or the refusal, was sent).
     */
    boolean answerDuplicate(Request r, int view) {
        String client = r.id().client();
        switch (replies.verdict(r.id(), rules.createdAt(client), options.sequenceIdleLimit())) {
            case DUPLICATE -> answerFromCache(r.id(), view);
            case ENDED -> answerEnded(r, view, Reply.TERMINATED);
            // Expired stays expired as the agreed time grows, so this answer is the one the ordered execution gives.
            // NOT_YET_VALID does not (the agreed time may reach the creation time): only the ordered execution says.
            case EXPIRED -> answerEnded(r, view, Reply.EXPIRED);
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
    private void answerEnded(Request r, int view, String why) {
        String answer = rules.terminates(r) && !why.equals(Reply.NOT_YET_VALID) ? Reply.TERMINATED : why;
        RequestId rid = r.id();
        out.toClient(rid.client(), new Reply(rid, view, Reply.sequenceEnded(answer), id));
    }

    private void answerFromCache(RequestId rid, int view) {
        Optional<byte[]> cached = replies.cachedReply(rid);
        cached.ifPresent(reply -> out.toClient(rid.client(), new Reply(rid, view, reply, id)));
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
        checkpointDue = -1;
        states.put(seq, installingEncoded);
        installing = null;
        installingEncoded = null;
        return replies;
    }

    /** After an installation: runs the batches queued above the installed checkpoint, if any. */
    void resume() {
        pump();
    }

    /** Forgets states older than the stable checkpoint. */
    void collectGarbage(long stableSeq) {
        states.headMap(stableSeq, false).clear();
    }
}
