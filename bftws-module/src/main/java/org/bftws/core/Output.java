package org.bftws.core;

import java.util.List;

/**
 * What a node asks its environment to do after an input. The adapter carries them out in the order given: it
 * executes an {@link Execute} and reports {@link Node#onExecuted} before it handles the outputs after it, and likewise
 * for {@link TakeCheckpoint} and {@link InstallState}.
 */
public sealed interface Output {

    /** Send a message. */
    record Send(Destination to, Message message) implements Output {
    }

    /**
     * Execute these requests, in this order, as sequence number {@code seq} (ordered in {@code view}); then report
     * their results with {@link Node#onExecuted}. Duplicates and requests out of order in their sequence were already
     * removed; the list may be empty (a null batch, or nothing new). {@code tentative}: the batch is prepared, not
     * committed yet (PBFT's tentative execution); a {@link TentativeSettled} for {@code seq} follows later.
     */
    record Execute(long seq, int view, List<Request> requests, boolean tentative) implements Output {
        public Execute {
            requests = List.copyOf(requests);
        }

        public Execute(long seq, int view, List<Request> requests) {
            this(seq, view, requests, false);
        }
    }

    /**
     * The tentative execution of {@code seq} is settled: {@code kept}, the batch committed as executed; otherwise the
     * group decided another batch there and the execution was undone: an {@link InstallState} of this node's last
     * checkpointed state follows, then the committed batches after it execute again. For logs, metrics and the
     * simulator's checks.
     */
    record TentativeSettled(long seq, boolean kept) implements Output {
    }

    /** Sequence number {@code seq} committed here with this batch (for logs, metrics and the simulator's checks). */
    record Committed(long seq, int view, Digest batch) implements Output {
    }

    /** Deliver {@code get_state} now (every request up to {@code seq} executed) and report it with onCheckpointState. */
    record TakeCheckpoint(long seq) implements Output {
    }

    /** Deliver {@code set_state} with this application state (as of {@code seq}), then report onStateInstalled. */
    record InstallState(long seq, byte[] applicationState) implements Output {
    }

    /**
     * An input was refused. Adapters log and count these; nothing else happens. {@code from} is the node that sent
     * the refused message, or -1 when the input was no message of a node: counted per sender, it shows which node
     * sends what a correct one never would (a Byzantine node's replays, contradicting checkpoints, forged states).
     */
    record Dropped(String what, String reason, int from) implements Output {
        public Dropped(String what, String reason) {
            this(what, reason, -1);
        }
    }

    /** The node suspects the primary and moves towards {@code view}, for {@code reason}. For logs and metrics. */
    record ViewChangeStarted(int view, String reason) implements Output {
    }

    /**
     * Make {@code record} durable (the data directory) before carrying out any output after it. Only nodes that keep
     * a data directory act on it; the others may ignore it (and then count as faulty if they restart empty).
     */
    record Persist(DurableRecord record) implements Output {
    }

    /**
     * This node's own checkpoint at {@code seq} differs from the stable one the others agreed on: its service is not
     * deterministic, or it is compromised. The group outvotes it; an operator should restart it with an empty data
     * directory (it then fetches the stable checkpoint).
     */
    record Diverged(long seq, Digest own, Digest stable) implements Output {
    }

    /** The node entered {@code view}; its primary is {@code primary}. For logs and failover measurements. */
    record ViewInstalled(int view, int primary) implements Output {
    }

    /**
     * Executing batch {@code seq} expired these client sequences (idle for longer than the idle limit), in this
     * order, at every executor alike; the adapter forgets what it keeps of them (WS-RM bookkeeping). Agreement-only
     * nodes report it when the batch commits.
     */
    record SequencesExpired(long seq, List<String> clients) implements Output {
        public SequencesExpired {
            clients = List.copyOf(clients);
        }
    }

    /** State transfer finished: the node now stands at the stable checkpoint {@code seq}. */
    record StateTransferred(long seq) implements Output {
    }
}
