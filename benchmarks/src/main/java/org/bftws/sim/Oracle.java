package org.bftws.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.Digest;
import org.bftws.core.Request;
import org.bftws.core.RequestId;

/**
 * Checks the safety invariants as events happen, against what the first correct node did:
 * agreement (no two correct nodes commit or execute different batches at one sequence number), validity (only
 * requests that clients signed execute; a caller group's nested request only if some correct node admitted it), exactly-once (no request id executes at two sequence numbers), and client
 * safety (a client accepts only the reply the correct executors produced).
 */
final class Oracle {

    private final Signatures signatures;
    private final Map<Long, Digest> committed = new HashMap<>();
    private final Map<Long, List<Digest>> executed = new HashMap<>();
    private final Map<RequestId, Long> executedAt = new HashMap<>();
    private final Map<RequestId, byte[]> replies = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Set<String> reported = new HashSet<>();
    /** Clients whose sequence a correct executor ended (its TerminateSequence executed), with the sequence number. */
    private final Map<String, Long> endedAt = new HashMap<>();
    /** Nested requests that reached a correct node's gate, i.e. were admitted there (Simulation.NESTED_CLIENT). */
    private final Set<Digest> admittedNested = new HashSet<>();

    Oracle(Signatures signatures) {
        this.signatures = signatures;
    }

    List<String> violations() {
        return violations;
    }

    private void violation(String kind, String detail) {
        if (reported.add(kind + detail) && violations.size() < 20) {
            violations.add(kind + ": " + detail);
        }
    }

    void committed(int node, long seq, Digest batch) {
        Digest first = committed.putIfAbsent(seq, batch);
        if (first != null && !first.equals(batch)) {
            violation("agreement", "node " + node + " committed " + batch + " at " + seq + ", another correct node " + first);
        }
    }

    void executed(int node, long seq, List<Request> requests) {
        List<Digest> digests = requests.stream().map(Request::digest).toList();
        List<Digest> first = executed.putIfAbsent(seq, digests);
        if (first != null) {
            if (!first.equals(digests)) {
                violation("agreement", "node " + node + " executed " + digests + " at " + seq + ", another correct node " + first);
            }
            return;
        }
        for (Request r : requests) {
            if (!signatures.clientSigned(r)) {
                violation("validity", "node " + node + " executed " + r + ", which no client sent");
            }
            if (Simulation.isNested(r.id().client()) && !admittedNested.contains(r.digest())) {
                violation("nested admission", "node " + node + " executed " + r + ", which no correct replica's gate"
                        + " admitted (only a faulty caller replica sent it)");
            }
            Long end = endedAt.get(r.id().client());
            if (end != null && end < seq) {
                violation("exactly-once", r + " executed at " + seq + " on a sequence that ended at " + end);
            }
            if (SimClient.terminates(r)) {
                endedAt.putIfAbsent(r.id().client(), seq);
            }
            Long earlier = executedAt.putIfAbsent(r.id(), seq);
            if (earlier != null) {
                violation("exactly-once", r.id() + " executed at " + earlier + " and again at " + seq);
            }
        }
    }

    /**
     * A correct node started a view change in a schedule where nothing but a client misbehaves: a client forced it,
     * which neither its requests' authenticators nor anything else it sends may do.
     */
    void clientForcedViewChange(int node, int view, String reason) {
        violation("forced view change", "node " + node + " moved to view " + view + " although only a client"
                + " misbehaves: " + reason);
    }

    /** A correct node's gate admitted the nested request {@code r} (it came in through onRequest). */
    void admittedNested(Request r) {
        admittedNested.add(r.digest());
    }

    void replied(int node, RequestId id, byte[] result) {
        byte[] first = replies.putIfAbsent(id, result);
        if (first != null && !Arrays.equals(first, result)) {
            violation("agreement", "node " + node + " replied differently to " + id);
        }
    }

    /**
     * A client accepted an answer on its ended sequence: that it ended, which must be true (a correct executor
     * executed its TerminateSequence), or the reply correct executors gave the request when it executed (those that
     * have not executed the end yet answer from their table); anything else lies.
     */
    void acceptedEnded(String client, RequestId id, byte[] result) {
        if (org.bftws.core.Reply.endedReason(result).isEmpty()) {
            // executors that have not executed the end yet still answer the last request from their table
            accepted(client, id, result);
        } else if (!endedAt.containsKey(id.client())) {
            violation("client safety", client + " was told its sequence ended at " + id + ", which never happened");
        }
    }

    void accepted(String client, RequestId id, byte[] result) {
        byte[] correct = replies.get(id);
        if (correct == null) {
            violation("client safety", client + " accepted a reply to " + id + " that no correct executor produced");
        } else if (!Arrays.equals(correct, result)) {
            violation("client safety", client + " accepted a wrong reply to " + id);
        }
    }
}
