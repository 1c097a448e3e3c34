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
 *
 * <p>With tentative execution, what a correct node's tentative run did counts only once the node keeps it (its batch
 * committed as run): until then it is held per node ({@link #provisionally}), and dropped if the run is undone. A
 * client may accept a tentative answer before any of that: such an acceptance waits ({@link #pendingAcceptances})
 * until a kept or committed execution at a correct executor confirms or contradicts it; one that nothing confirms by
 * the end of the run is a violation too.
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
    /** Clients whose sequence a correct executor expired, with the sequence number of the batch that did. */
    private final Map<String, Long> expiredAt = new HashMap<>();
    /** Refusals correct executors sent (request and result): what a client may accept instead of a reply. */
    private final Set<String> refusals = new HashSet<>();
    /** Requests a correct executor refused as expired: expiry is final, so none of them may execute afterwards. */
    private final Set<RequestId> refusedExpired = new HashSet<>();
    /** Nested requests that reached a correct node's gate, i.e. were admitted there (Simulation.NESTED_CLIENT). */
    private final Set<Digest> admittedNested = new HashSet<>();

    /** The service's state after its k-th executed request, as correct executors computed it (read linearizability). */
    private final Map<Long, byte[]> stateAfter = new HashMap<>();
    /** How many requests the service had executed once a request executed at a correct executor: its position. */
    private final Map<RequestId, Long> positionOf = new HashMap<>();
    /** The highest position of a request some client accepted the reply to: every read begun later must see it. */
    private long completedThrough;

    /** An answer a client accepted that no kept execution at a correct executor has produced yet. */
    private record Pending(String client, RequestId id, byte[] result, boolean ended) {
    }

    private boolean tentativeExecution;
    private final List<Pending> pending = new ArrayList<>();
    /** Per correct node: the records of its unsettled tentative run, by sequence number. */
    private final Map<Integer, java.util.TreeMap<Long, List<Runnable>>> provisional = new HashMap<>();

    Oracle(Signatures signatures) {
        this.signatures = signatures;
        stateAfter.put(0L, new SimApplication().getState());
    }

    List<String> violations() {
        return violations;
    }

    /** The schedule runs tentatively: acceptances may come before the execution that confirms them is kept. */
    void tentativeExecution() {
        tentativeExecution = true;
    }

    /** What correct node {@code node}'s tentative run of {@code seq} did: recorded if the node keeps the run. */
    void provisionally(int node, long seq, Runnable record) {
        provisional.computeIfAbsent(node, n -> new java.util.TreeMap<>()).computeIfAbsent(seq, s -> new ArrayList<>())
                .add(record);
    }

    /** Correct node {@code node} settled its tentative run of {@code seq}: kept (it counts now) or undone. */
    void settled(int node, long seq, boolean kept) {
        java.util.TreeMap<Long, List<Runnable>> held = provisional.getOrDefault(node, new java.util.TreeMap<>());
        List<Runnable> records = held.remove(seq);
        if (kept && records != null) {
            records.forEach(Runnable::run);
        }
        checkPending();
    }

    /** Node {@code node} crashed: its unsettled tentative run is gone with its process. */
    void forget(int node) {
        provisional.remove(node);
    }

    /** Acceptances still waiting for a kept or committed execution that confirms them. */
    int pendingAcceptances() {
        return pending.size();
    }

    /** The run is over: an acceptance nothing confirmed accepted what no correct execution that counts produced. */
    void reportUnconfirmed() {
        for (Pending p : pending) {
            violation("client safety", p.client() + " accepted a tentative answer to " + p.id()
                    + " that no kept or committed execution at a correct executor produced");
        }
    }

    private void checkPending() {
        if (pending.isEmpty()) {
            return;
        }
        List<Pending> waiting = new ArrayList<>(pending);
        pending.clear();
        for (Pending p : waiting) {
            if (p.ended()) {
                acceptedEnded(p.client(), p.id(), p.result());
            } else {
                accepted(p.client(), p.id(), p.result());
            }
        }
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
            Long expired = expiredAt.get(r.id().client());
            if (expired != null && expired <= seq) {
                violation("exactly-once", r + " executed at " + seq + " on a sequence that expired at " + expired);
            }
            if (refusedExpired.contains(r.id())) {
                violation("exactly-once", r + " executed at " + seq + " after a correct executor refused it as expired");
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

    /** When each node last admitted each flooded request (node, then request): from then on it may claim it. */
    private final Map<Integer, Map<org.bftws.core.RequestRef, Long>> floodAdmitted = new HashMap<>();
    /** Claims correct nodes sent of flooded requests long after they last admitted them, by request. */
    private final Map<org.bftws.core.RequestRef, String> lateClaims = new java.util.LinkedHashMap<>();

    /**
     * Node {@code node} admitted flooded request {@code ref} (its authenticator entry verified there) at its own tick
     * {@code now} (the ticks it ran: a paused node's timers stand still).
     */
    void floodAdmitted(int node, org.bftws.core.RequestRef ref, long now) {
        floodAdmitted.computeIfAbsent(node, n -> new HashMap<>()).put(ref, now);
    }

    /**
     * Correct node {@code node} claims flooded request {@code ref} at {@code now}: more than {@code quiet} ticks after
     * it last admitted it, that is a claim after it should have abandoned the request, unless the request is ordered
     * after all (then it was corroborated: checked at the end, {@link #reportClaimsAfterAbandonment}).
     */
    void floodClaimed(int node, org.bftws.core.RequestRef ref, long now, long quiet, String kind) {
        Long at = floodAdmitted.getOrDefault(node, Map.of()).get(ref);
        if (at == null || now - at > quiet) {
            lateClaims.putIfAbsent(ref, "node " + node + " sent a " + kind + " of " + ref + " at its tick " + now + ", "
                    + (at == null ? "never having admitted it" : (now - at) + " ticks after it last admitted it")
                    + " (bound " + quiet + ")");
        }
    }

    /** The run is over: claims of flooded requests sent long after their admission, for requests never executed. */
    void reportClaimsAfterAbandonment() {
        lateClaims.forEach((ref, what) -> {
            if (!executedAt.containsKey(ref.id())) {
                violation("claims after abandonment", what + ", and it was never ordered");
            }
        });
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
        if (first == null) {
            checkPending();
        }
    }

    /** A correct executor expired these sequences when it executed batch {@code seq}. */
    void expired(int node, long seq, List<String> clients) {
        for (String c : clients) {
            expiredAt.putIfAbsent(c, seq);
        }
    }

    /** A correct executor refused {@code id} (sequence ended, expired or not valid yet) with {@code result}. */
    void refused(int node, RequestId id, byte[] result) {
        if (refusals.add(id + " " + Arrays.toString(result))) {
            checkPending();
        }
        if (org.bftws.core.Reply.endedReason(result).orElse("").equals(org.bftws.core.Reply.EXPIRED)) {
            refusedExpired.add(id);
        }
    }

    /** The idle client's request after its time away executed: its sequence should have expired first. */
    void notExpired(String client, RequestId id) {
        violation("expiry", client + " came back after the idle limit and " + id + " executed on its old sequence");
    }

    /**
     * A client accepted an answer on its ended sequence: that it ended, which must be true (a correct executor
     * executed its TerminateSequence, or a correct executor said so), or the reply correct executors gave the request
     * when it executed (those that have not executed the end yet answer from their table); anything else lies.
     */
    void acceptedEnded(String client, RequestId id, byte[] result) {
        java.util.Optional<String> reason = org.bftws.core.Reply.endedReason(result);
        if (reason.isEmpty()) {
            // executors that have not executed the end yet still answer the last request from their table
            accepted(client, id, result);
        } else if (refusals.contains(id + " " + Arrays.toString(result))) {
            return; // a correct executor said exactly this (to a TerminateSequence: ended, when it expired too)
        } else if (tentativeExecution && reason.get().equals(org.bftws.core.Reply.EXPIRED)
                && expiredAt.containsKey(id.client())) {
            return; // a tentative refusal from a node's table: the sequence did expire at a correct executor since
        } else if (tentativeExecution) {
            pending.add(new Pending(client, id, result, true)); // a tentative refusal, not kept yet (or a lie)
        } else if (reason.get().equals(org.bftws.core.Reply.TERMINATED) && !endedAt.containsKey(id.client())) {
            violation("client safety", client + " was told its sequence ended at " + id + ", which never happened");
        } else {
            violation("client safety", client + " was told its sequence is " + reason.get() + " at " + id
                    + ", which no correct executor said");
        }
    }

    /** A correct executor's service executed {@code id}, leaving {@code state} ({@link SimApplication#getState}). */
    void executedState(int node, RequestId id, byte[] state) {
        long count = SimApplication.count(state);
        byte[] first = stateAfter.putIfAbsent(count, state);
        if (first != null && !Arrays.equals(first, state)) {
            violation("agreement", "node " + node + "'s service state after " + count + " requests differs from"
                    + " another correct node's");
        }
        positionOf.putIfAbsent(id, count);
    }

    /** Where a read begun now must stand at least: after every request whose reply a client accepted so far. */
    long completedThrough() {
        return completedThrough;
    }

    /**
     * Linearizability of a read accepted without ordering: its value must be the state after some prefix of the
     * order that a correct executor computed (so no request after the read's acceptance can be in it), and the prefix
     * must hold every request completed before the read began ({@code lowerBound}).
     */
    void acceptedRead(String client, byte[] value, long lowerBound) {
        long count = SimApplication.count(value);
        byte[] state = stateAfter.get(count);
        if (state == null || !Arrays.equals(state, value)) {
            violation("read linearizability", client + " accepted a read of a state no correct executor had"
                    + " (after " + count + " requests)");
        } else if (count < lowerBound) {
            violation("read linearizability", client + " accepted a stale read: the state after " + count
                    + " requests, though a request at position " + lowerBound + " had completed before the read"
                    + " began");
        }
    }

    void accepted(String client, RequestId id, byte[] result) {
        Long position = positionOf.get(id);
        if (position != null) {
            completedThrough = Math.max(completedThrough, position);
        }
        byte[] correct = replies.get(id);
        if (correct == null && tentativeExecution) {
            pending.add(new Pending(client, id, result, false)); // a tentative answer, not kept yet (or a lie)
        } else if (correct == null) {
            violation("client safety", client + " accepted a reply to " + id + " that no correct executor produced");
        } else if (!Arrays.equals(correct, result)) {
            violation("client safety", client + " accepted a wrong reply to " + id);
        }
    }
}
